/// A message's Objective-C selector, hashed once when it is made, as the Objective-C runtime registers a selector
/// once: a dictionary keyed by it mixes that one integer with its seed per lookup, hashing no characters.
@frozen
@usableFromInline
internal struct MessageSelector: Hashable, Sendable {
    /// The selector, such as `"scrollViewDidScroll:"`.
    @usableFromInline
    internal let name: String

    /// `name.hashValue`, computed once.
    @usableFromInline
    internal let nameHash: Int

    /// Registers `name`, hashing its characters: O(*s*) for *s* characters.
    @usableFromInline @_alwaysEmitIntoClient
    internal init(_ name: String) {
        self.name = name
        self.nameHash = name.hashValue
    }

    /// Feeds the precomputed hash of the name, for hashing a selector as part of a larger value.
    @usableFromInline @_alwaysEmitIntoClient
    internal func hash(into hasher: inout Hasher) {
        hasher.combine(nameHash)
    }

    /// The bucket hash `Dictionary` and `Set` use: the precomputed hash, already a `Hasher` output, mixed with the
    /// table's seed by one exclusive or. Two names whose hashes are equal collide in every table, which costs a
    /// probe, never a wrong answer (`==` compares names).
    @usableFromInline @_alwaysEmitIntoClient
    internal func _rawHashValue(seed: Int) -> Int {
        nameHash ^ seed
    }

    /// Equal names, the hashes compared first: O(1) when they differ or the names share storage, O(*s*) otherwise.
    @usableFromInline @_alwaysEmitIntoClient
    internal static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.name == rhs.name
    }
}
