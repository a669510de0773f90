/// An ordered list of values keyed by their target's identity: one message's responders in ``ClosureList``,
/// which dispatches iterate in place, pinned (see ``PinnedArray``), each seeing the list as it began.
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
    internal var entries = PinnedArray<Entry>()

    @inlinable
    internal init() {}

    /// Appends a value; the caller ensures `id` is not already present.
    ///
    /// - Complexity: Amortized O(1), or O(*n*) while a dispatch iterates the list.
    internal mutating func append(_ value: Value, for id: ObjectIdentifier) {
        entries.modify { $0.append(Entry(id: id, value: value)) }
    }

    /// Removes the value registered for `id`, if any, and returns whether it did.
    ///
    /// - Complexity: O(*n*), where *n* is the number of entries.
    @discardableResult
    internal mutating func remove(_ id: ObjectIdentifier) -> Bool {
        // Read in place: `firstIndex(where:)` copies each entry, a retain and a release of each reference in it.
        let found = entries.elements.withUnsafeBufferPointer { buffer in
            buffer.indices.first { buffer[$0].id == id }
        }
        guard let index = found else { return false }
        // The entry is dropped inside the change; its target cannot be freed there: whoever removes a target holds
        // it (`ClosureListStorage.unbind`'s argument).
        entries.modify { _ = $0.remove(at: index) }
        return true
    }
}
