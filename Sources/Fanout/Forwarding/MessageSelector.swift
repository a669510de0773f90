/// A message's Objective-C selector, hashed once.
///
/// The Objective-C runtime registers every selector once (`sel_registerName`),
/// and the compiler resolves each `@selector(…)` to that registered pointer
/// when the image loads, so a method-cache lookup hashes a pointer, never the
/// selector's characters. A `MessageSelector` plays that part for
/// ``SelectorDictionaryMultiplexer``: its name's hash is computed when it is
/// made, and a dictionary keyed by it mixes that one integer with its seed per
/// lookup.
@frozen
@usableFromInline
internal struct MessageSelector: Hashable, Sendable {
    /// The selector, such as `"scrollViewDidScroll:"`.
    @usableFromInline
    internal let name: String

    /// `name.hashValue`, computed once.
    @usableFromInline
    internal let nameHash: Int

    /// Registers `name`, hashing its characters.
    ///
    /// - Complexity: O(*s*), where *s* is the length of `name`.
    @inlinable
    internal init(_ name: String) {
        self.name = name
        self.nameHash = name.hashValue
    }

    /// Feeds the precomputed hash of the name, for hashing a selector as part
    /// of a larger value.
    ///
    /// - Complexity: O(1).
    @inlinable
    internal func hash(into hasher: inout Hasher) {
        hasher.combine(nameHash)
    }

    /// The bucket hash `Dictionary` and `Set` use: the precomputed hash mixed
    /// with the table's seed, without running `Hasher`.
    ///
    /// `Hashable` lets a type answer this itself (the standard library's
    /// integers use it for a one-shot hash instead of a streaming `Hasher`).
    /// Running `Hasher` over the one integer cost ~190 instructions per
    /// lookup here (`init`, `combine`, `finalize`, counted by callgrind); this
    /// costs one XOR. The name hash is already a `Hasher` output, so the
    /// buckets stay uniformly spread. The seed only moves them: two selectors
    /// whose 64-bit name hashes are equal collide in every table, which costs
    /// a probe, never a wrong answer (`==` compares the names).
    ///
    /// - Complexity: O(1).
    @inlinable
    internal func _rawHashValue(seed: Int) -> Int {
        nameHash ^ seed
    }

    /// Equal names; the hashes are compared first.
    ///
    /// - Complexity: O(1) when the hashes differ or both names share storage,
    ///   O(*s*) otherwise.
    @inlinable
    internal static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.name == rhs.name
    }
}
