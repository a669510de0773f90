/// The type-erased face of one message's closure list, so that lists for
/// messages of different signatures can share one table.
@usableFromInline
internal class ClosureListBase {
    @usableFromInline
    init() {}

    func removeClosure(for id: ObjectIdentifier) {}
}

/// The closures bound for one message, in registration order: the storage of
/// ``ClosureTableStorage`` (indexed by message ordinal) and
/// ``SelectorDictionaryStorage`` (keyed by selector).
@usableFromInline
internal final class ClosureList<Arguments, Result>: ClosureListBase {
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check.
    @exclusivity(unchecked) @usableFromInline
    var closures = IdentifiedList<(Arguments) -> Result>()

    @usableFromInline
    override init() {}

    override func removeClosure(for id: ObjectIdentifier) {
        closures.remove(id)
    }

    /// Appends the closure that sends `message` to `target` to the list in
    /// `slot`, creating the list if the slot is empty.
    ///
    /// - Precondition: The slot, if filled, holds the list for a descriptor of
    ///   the same signature (a schema lists one descriptor per message).
    static func bind<M: MessageProtocol>(
        _ message: M, to target: M.Schema.Target, id: ObjectIdentifier, in slot: inout ClosureListBase?
    ) where M.Arguments == Arguments, M.Result == Result {
        let list: ClosureList
        if let existing = slot {
            guard let typed = existing as? ClosureList else {
                preconditionFailure("\(M.Schema.self) lists two descriptors for '\(message.key.rawValue)' with different types")
            }
            list = typed
        } else {
            list = ClosureList()
            slot = list
        }
        list.closures.append(message.bound(to: target), for: id)
    }

    /// The closures of the list in `slot`, in registration order: a snapshot
    /// that later mutations cannot change. `nil` when the slot is empty.
    ///
    /// Dispatch takes the snapshot in a statement of its own, so that nothing
    /// holds the list itself while the closures run: the snapshot keeps them
    /// alive, and one retain per message is saved (measured). A single helper
    /// taking the slot and delivering would keep its argument, the list,
    /// alive across the calls: the gate counted the retain back.
    ///
    /// - Precondition: `slot` was filled by ``bind(_:to:id:in:)`` with this
    ///   signature (checked in debug builds).
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    static func snapshot(of slot: ClosureListBase?) -> Snapshot? {
        guard let slot else { return nil }
        return unsafeDowncast(slot, to: ClosureList.self).closures.entries
    }

    /// The closures of one list as dispatch iterates them.
    @usableFromInline
    typealias Snapshot = ContiguousArray<IdentifiedList<(Arguments) -> Result>.Entry>

    /// Calls the closures of `snapshot`, in order, for as long as
    /// `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*r*) in the closures of the snapshot.
    @inlinable
    @inline(__always)
    static func deliver(_ arguments: Arguments, to snapshot: Snapshot, while shouldContinue: (Result) -> Bool) {
        // Indexing the array: iterating its buffer through an unsafe pointer
        // instead makes the optimizer retain and release every closure, and a
        // `for … in` that can return early re-reads the count on every turn
        // (both measured; the gate pins this loop).
        let count = snapshot.count
        var index = 0
        while index < count {
            guard shouldContinue(snapshot[index].value(arguments)) else { return }
            index &+= 1
        }
    }
}
