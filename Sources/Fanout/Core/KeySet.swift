/// A set of message keys stored as a 64-bit mask: which messages a target responds to.
///
/// - Complexity: Every operation is O(1).
@frozen @usableFromInline
package struct KeySet<Key: MessageKey>: Hashable, Sendable {
    /// Bit *i* is set when the key with ordinal *i* is a member.
    @usableFromInline package var bits: UInt64

    @usableFromInline @_alwaysEmitIntoClient
    package init() { bits = 0 }

    /// The set whose members are the keys with the ordinals of `bits`' set bits.
    @usableFromInline @_alwaysEmitIntoClient
    package init(bits: UInt64) { self.bits = bits }

    /// Creates the set of keys for which `isMember` returns `true`, in O(*k*) for *k* keys.
    @usableFromInline @_alwaysEmitIntoClient
    package init(where isMember: (Key) throws -> Bool) rethrows {
        var bits: UInt64 = 0
        for key in Key.allCases where try isMember(key) { bits |= Self.bit(key) }
        self.bits = bits
    }

    @usableFromInline @_alwaysEmitIntoClient
    package func contains(_ key: Key) -> Bool {
        bits & Self.bit(key) != 0
    }

    @usableFromInline @_alwaysEmitIntoClient
    package mutating func insert(_ key: Key) {
        bits |= Self.bit(key)
    }

    @usableFromInline @_alwaysEmitIntoClient
    package func intersects(_ other: KeySet) -> Bool {
        bits & other.bits != 0
    }

    @usableFromInline @_alwaysEmitIntoClient
    package init(_ key: Key) { bits = Self.bit(key) }

    @usableFromInline @_alwaysEmitIntoClient
    package var isEmpty: Bool { bits == 0 }

    @usableFromInline @_alwaysEmitIntoClient
    package static func bit(_ key: Key) -> UInt64 {
        let ordinal = key.caseIndex
        precondition(ordinal >= 0 && ordinal < 64, "KeySet holds at most 64 keys")
        return 1 &<< UInt64(ordinal)
    }
}
