/// Finds a message's ordinal by its selector named at run time, for
/// ``SelectorDictionaryMultiplexer/forward(_:arguments:)``: one hash of the name's UTF-8 bytes and, on average,
/// one probe, whatever the number of messages. Open-addressed, at most half full. Each bucket keeps its name's full
/// hash, and a probe compares names only when the hashes are equal: a collision costs a probe, never a wrong answer.
internal struct SelectorTable: Sendable {
    /// The selectors, by ordinal.
    internal let names: [String]
    /// Per bucket, the full hash of the selector there and its ordinal plus one; ordinal 0 when empty.
    private let buckets: [(hash: Int, ordinal: Int)]
    private let mask: Int

    /// A table of `names`, whose positions are their ordinals, in O(*k*) for *k* names; a name listed twice stops the
    /// program with `duplicate`'s message.
    internal init(_ names: [String], duplicate: (String) -> String = { "selector '\($0)' is listed twice" }) {
        self.names = names
        var size = 4
        while size < names.count * 2 { size *= 2 }
        mask = size - 1
        var buckets = [(hash: Int, ordinal: Int)](repeating: (0, 0), count: size)
        for (ordinal, name) in names.enumerated() {
            let hash = Self.hash(name)
            var bucket = hash & mask
            while buckets[bucket].ordinal != 0 {
                if names[buckets[bucket].ordinal - 1] == name { fatalError(duplicate(name)) }
                bucket = (bucket + 1) & mask
            }
            buckets[bucket] = (hash, ordinal + 1)
        }
        self.buckets = buckets
    }

    /// The ordinal of `selector`, or `nil` when no message has that name: O(*s*) for *s* bytes, O(1) on average in
    /// the number of messages.
    internal func ordinal(of selector: String) -> Int? {
        find(selector).ordinal
    }

    /// How many buckets a lookup of `selector` reads (1 when its bucket is the first probed): for tests of the spread.
    internal func probes(for selector: String) -> Int {
        find(selector).probes
    }

    @inline(__always)
    private func find(_ selector: String) -> (ordinal: Int?, probes: Int) {
        let hash = Self.hash(selector)
        var bucket = hash & mask
        var probes = 1
        while true {
            let entry = buckets[bucket]
            if entry.ordinal == 0 { return (nil, probes) }
            if entry.hash == hash && names[entry.ordinal - 1] == selector { return (entry.ordinal - 1, probes) }
            bucket = (bucket + 1) & mask
            probes += 1
        }
    }

    /// A hash of the name's UTF-8 bytes read eight at a time, each word mixed in by a rotation, an exclusive or and
    /// a multiplication (rustc's FxHasher); a last partial word is read as the last eight bytes, or byte by byte in a
    /// name shorter than eight; a final mix brings the high bits down to the low ones that pick the bucket.
    internal static func hash(_ name: String) -> Int {
        func mix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            let multiplier: UInt64 = 0x517c_c1b7_2722_0a95
            var hash = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
            guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: hash) }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash.rotatedLeft(5) ^ word) &* multiplier
                offset &+= 8
            }
            if offset < bytes.count && bytes.count >= 8 {
                // The last eight bytes, overlapping the word before.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self))
                hash = (hash.rotatedLeft(5) ^ word) &* multiplier
            } else if offset < bytes.count {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                while offset < bytes.count {
                    word |= UInt64(base[offset]) &<< shift
                    shift &+= 8
                    offset &+= 1
                }
                hash = (hash.rotatedLeft(5) ^ word) &* multiplier
            }
            // A multiplication carries differences only upwards, and the bucket comes from the low bits: without this
            // final mix (MurmurHash3's finalizer), names differing only in their last bytes would share buckets.
            hash = (hash ^ (hash &>> 33)) &* 0xff51_afd7_ed55_8ccd
            return Int(truncatingIfNeeded: hash ^ (hash &>> 33))
        }
        return name.utf8.withContiguousStorageIfAvailable(mix) ?? Array(name.utf8).withUnsafeBufferPointer(mix)
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self &<< count) | (self &>> (64 &- count))
    }
}
