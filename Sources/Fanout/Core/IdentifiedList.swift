/// An ordered list of values, each belonging to one registered target and
/// keyed by that target's identity: one message's responders in ``ClosureList``.
///
/// Dispatch iterates the list's buffer in place, pinned (see ``PinnedArray``):
/// later changes copy the buffer instead of changing it, so each dispatch
/// sees the list as it was when it began.
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
    /// - Complexity: Amortized O(1), or O(*n*) while a dispatch iterates the
    ///   list.
    internal mutating func append(_ value: Value, for id: ObjectIdentifier) {
        entries.modify { $0.append(Entry(id: id, value: value)) }
    }

    /// Removes the value registered for `id`, if any.
    ///
    /// - Returns: Whether a value was removed.
    /// - Complexity: O(*n*), where *n* is the number of entries.
    @discardableResult
    internal mutating func remove(_ id: ObjectIdentifier) -> Bool {
        // The identities read in place: `firstIndex(where:)` copies each entry
        // it passes, a retain and a release of each reference in it.
        let found = entries.elements.withUnsafeBufferPointer { buffer in
            buffer.indices.first { buffer[$0].id == id }
        }
        guard let index = found else { return false }
        // The entry is dropped inside the change; its target cannot be freed there: whoever removes a target holds
        // it (`ClosureBinding.unbind`'s argument).
        entries.modify { _ = $0.remove(at: index) }
        return true
    }
}
