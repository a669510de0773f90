/// The typed delivery of every single-threaded strategy, in one function: a call of the multiplexer over one pinned
/// array. (`selectorDictionary`'s `forward` pins its list in `ResponderList.forward`, which collects the answers.)
extension Unmanaged where Instance: SingleThreadedStrategy {
    /// A dispatch of the multiplexer, which the caller holds, over the array of `owner`: the table's, for a table
    /// strategy, or the list of the message in flight (`nil` when no target responds to it yet). Begins a call of the
    /// multiplexer and pins the array; calls `call` with the pinned elements and the index of each, in order, while
    /// it returns `true`; then unpins the array and ends the call, or, when another dispatch is in flight or a change
    /// retired a buffer or flagged the dispatch meanwhile, ends both out of line (``endDispatchAndCall(pinning:)``).
    ///
    /// The pinned buffer keeps every element, and so every target, alive until the end: `call` reads the elements in
    /// place (it lends a target, ``lend(_:to:)``, or retains one for its call) and writes nothing. Nothing is
    /// retained: the caller holds the multiplexer, and the multiplexer its table and its lists.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    func dispatch<Owner: PinnedArrayOwner>(
        pinning owner: Unmanaged<Owner>?,
        _ call: (_ pinned: UnsafeMutableBufferPointer<Owner.PinnedElement>, _ index: Int) -> Bool
    ) {
        beginCall()
        guard let owner else { return endCall() }
        let elements = UnsafeMutableBufferPointer(mutating: owner.beginDispatch())
        // The pinned buffer does not change during the dispatch: its count is read once.
        let count = elements.count
        var index = 0
        while index < count {
            guard call(elements, index) else { break }
            index &+= 1
        }
        if owner.endDispatchUnchanged() {
            endCall()
        } else {
            endDispatchAndCall(pinning: owner)
        }
    }

    /// Ends the dispatch begun last over `owner`'s array when another is in flight or the array changed or was
    /// flagged during it, and the call; the last dispatch in flight announces the change.
    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    func endDispatchAndCall<Owner: PinnedArrayOwner>(pinning owner: Unmanaged<Owner>) {
        let wasLastAfterChange = owner.endDispatchAfterChange()
        endCall()
        if wasLastAfterChange { _withUnsafeGuaranteedRef { $0.dispatchesEnded() } }
    }
}

/// A table strategy (`existentialArray`, `weakArray`, `lifetimeBound`): a ``SingleThreadedStrategy`` whose
/// dispatches pin its core's table and iterate it in place (a list strategy's dispatches pin their message's list
/// instead).
extension PinnedArrayOwner
where Self: SingleThreadedStrategy, PinnedElement == RegistrationTable<Schema, Registration>.Entry {
    /// The table's registrations, which a table strategy's dispatch pins.
    @usableFromInline @_alwaysEmitIntoClient
    var pinned: PinnedArray<PinnedElement> {
        _read { yield core.table.pinned }
        _modify { yield &core.table.pinned }
    }
}

extension Unmanaged
where
    Instance: SingleThreadedStrategy & PinnedArrayOwner,
    Instance.PinnedElement == RegistrationTable<Instance.Schema, Instance.Registration>.Entry
{
    /// A dispatch found a registered target gone: a change, deferred so that the last dispatch to end drops it and
    /// announces it (``SingleThreadedStrategy/dispatchesEnded()``).
    @usableFromInline @inline(never)
    func dropGoneTargetsWhenDispatchesEnd() {
        _withUnsafeGuaranteedRef {
            $0.core.deferAnnouncement(from: $0.core.table.respondingBits)
            $0.pinned.flagDispatches()
        }
    }
}

/// Calls `body` with `value`, lent in place rather than copied out.
///
/// Precondition: nothing writes or destroys `value` until `body` returns, and `body` only reads it. The strategies
/// lend what a delivery keeps alive: an element of a single-threaded strategy's pinned buffer (a change copies the
/// buffer before writing) or a registration's storage (written only when it is made). Other accesses overlap this
/// formal modification on purpose (a nested delivery lends the same value again; a change during a callback copies
/// the buffer); they only read, and accesses through an unsafe pointer are not enforced. Not for a value other
/// threads read at the same time (`concurrent`'s snapshot): ThreadSanitizer reports those accesses as races.
@usableFromInline @_alwaysEmitIntoClient @inline(__always)
internal func lend<Value, Result>(_ value: inout Value, to body: (Value) -> Result) -> Result { body(value) }
