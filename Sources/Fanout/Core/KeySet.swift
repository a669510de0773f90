/// A set of message keys stored as a 64-bit mask: which messages a target responds to.
///
/// - Complexity: Every operation is O(1).
@frozen @usableFromInline
package struct KeySet<Key: MessageKey>: Hashable, Sendable {
    /// Bit *i* is set when the key with ordinal *i* is a member.
    @usableFromInline package var bits: UInt64

    /// Creates an empty set.
    @usableFromInline @_alwaysEmitIntoClient
    package init() { bits = 0 }

    /// The set whose members are the keys with the ordinals of `bits`' set bits.
    @usableFromInline @_alwaysEmitIntoClient
    package init(bits: UInt64) { self.bits = bits }

    /// Creates the set of keys for which `isMember` returns `true`.
    ///
    /// - Complexity: O(*k*), where *k* is the number of keys.
    @usableFromInline @_alwaysEmitIntoClient
    package init(where isMember: (Key) throws -> Bool) rethrows {
        // Gathered in a local: in unspecialized code, each mutating call on the generic struct asks for its metadata.
        var bits: UInt64 = 0
        for key in Key.allCases where try isMember(key) { bits |= Self.bit(key) }
        self.bits = bits
    }

    /// Whether `key` is in the set.
    @usableFromInline @_alwaysEmitIntoClient
    package func contains(_ key: Key) -> Bool {
        bits & Self.bit(key) != 0
    }

    /// Adds `key` to the set.
    @usableFromInline @_alwaysEmitIntoClient
    package mutating func insert(_ key: Key) {
        bits |= Self.bit(key)
    }

    /// Whether the set holds any member of `other`: with `other` made once before a loop over registrations, one
    /// `and` per registration, whether or not the key's ordinal is a constant.
    @usableFromInline @_alwaysEmitIntoClient
    package func intersects(_ other: KeySet) -> Bool {
        bits & other.bits != 0
    }

    /// The set of `key` alone.
    @usableFromInline @_alwaysEmitIntoClient
    package init(_ key: Key) { bits = Self.bit(key) }

    /// Whether the set has no members.
    @usableFromInline @_alwaysEmitIntoClient
    package var isEmpty: Bool { bits == 0 }

    @usableFromInline @_alwaysEmitIntoClient
    package static func bit(_ key: Key) -> UInt64 {
        let ordinal = key.caseIndex
        precondition(ordinal >= 0 && ordinal < 64, "KeySet holds at most 64 keys")
        return 1 &<< UInt64(ordinal)
    }
}
