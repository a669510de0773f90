/// Finds a message's ordinal by its selector named at run time, in one hash
/// of the name's UTF-8 bytes and, on average, one probe, whatever the number
/// of messages: what ``SelectorDictionaryMultiplexer/forward(_:arguments:)``
/// looks selectors up in.
///
/// The hash is FNV-1a over the bytes, a few instructions each: `String`'s own
/// `hashValue` runs SipHash, about 300 instructions for a 20-character
/// selector (Documentation/Findings.md, 18). A hit is confirmed by comparing
/// the names, so a collision costs a probe, never a wrong answer. The table
/// is open-addressed, at most half full.
internal struct SelectorTable: Sendable {
    /// The selectors, by ordinal.
    internal let names: [String]
    /// Per bucket, the ordinal of the selector there plus one; 0 when empty.
    private let buckets: [Int]
    private let mask: Int

    /// A table of `names`, whose positions are their ordinals.
    ///
    /// - Precondition: The names are distinct.
    /// - Complexity: O(*k*) for *k* names.
    internal init(_ names: [String]) {
        self.names = names
        var size = 4
        while size < names.count * 2 { size *= 2 }
        mask = size - 1
        var buckets = [Int](repeating: 0, count: size)
        for (ordinal, name) in names.enumerated() {
            var bucket = Self.hash(name) & mask
            while buckets[bucket] != 0 {
                precondition(names[buckets[bucket] - 1] != name, "selector '\(name)' is listed twice")
                bucket = (bucket + 1) & mask
            }
            buckets[bucket] = ordinal + 1
        }
        self.buckets = buckets
    }

    /// The ordinal of `selector`, or `nil` when no message has that name.
    ///
    /// - Complexity: O(*s*) for a selector of *s* bytes; O(1) in the number of
    ///   messages on average.
    internal func ordinal(of selector: String) -> Int? {
        var bucket = Self.hash(selector) & mask
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return nil }
            if names[entry - 1] == selector { return entry - 1 }
            bucket = (bucket + 1) & mask
        }
    }

    /// FNV-1a (64-bit) of the name's UTF-8 bytes.
    private static func hash(_ name: String) -> Int {
        func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 32))
        }
        return name.utf8.withContiguousStorageIfAvailable(fnv) ?? Array(name.utf8).withUnsafeBufferPointer(fnv)
    }
}
