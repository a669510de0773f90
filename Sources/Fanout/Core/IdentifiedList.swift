/// An ordered list of values, each belonging to one registered target and
/// keyed by that target's identity: one message's closures in ``ClosureList``.
///
/// Dispatch iterates a copy of ``entries``; copying is O(1) (the buffer is
/// shared) and gives every delivery a snapshot that later mutations cannot
/// change, because they copy the buffer on write.
@frozen
@usableFromInline
internal struct IdentifiedList<Value> {
    @usableFromInline
    internal struct Entry {
        @usableFromInline let id: ObjectIdentifier
        @usableFromInline let value: Value

        @inlinable
        init(id: ObjectIdentifier, value: Value) {
            self.id = id
            self.value = value
        }
    }

    /// The values in registration order.
    @usableFromInline
    internal private(set) var entries: ContiguousArray<Entry> = []

    @inlinable
    internal init() {}

    /// Appends a value; the caller ensures `id` is not already present.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    internal mutating func append(_ value: Value, for id: ObjectIdentifier) {
        entries.append(Entry(id: id, value: value))
    }

    /// Removes the value registered for `id`, if any.
    ///
    /// - Returns: Whether a value was removed.
    /// - Complexity: O(*n*), where *n* is the number of entries.
    @inlinable
    @discardableResult
    internal mutating func remove(_ id: ObjectIdentifier) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }
}
