extension RegistrationTable {
    /// Calls `call` with the index of each entry of `entries` that responds to the message named `key`, in order, for
    /// as long as it returns `true`: the loop of every strategy that pins a table. The caller keeps the buffer, and
    /// so every entry and target, alive until the dispatch ends; `call` reads the entry in place.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    static func forEachResponder(
        to key: Schema.Key, in entries: UnsafeBufferPointer<Entry>, _ call: (Int) -> Bool
    ) {
        let sent = KeySet(key)
        let count = entries.count
        var index = 0
        while true {
            while index < count && _slowPath(!entries[index].messages.intersects(sent)) { index &+= 1 }
            guard index < count, call(index) else { return }
            index &+= 1
        }
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
    /// The registrations as a dispatch reads them: as they were when it began.
    @usableFromInline
    typealias Entries = UnsafeBufferPointer<RegistrationTable<Instance.Schema, Instance.Registration>.Entry>

    /// A dispatch of the multiplexer, which the caller holds: begins a call of it, pins its table's buffer, runs
    /// `deliver` over it, then unpins it, or frees what a change retired meanwhile, and ends the call; the last
    /// dispatch in flight, when the registrations changed during it, then announces the change.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    func dispatch(_ deliver: (Entries) -> Void) {
        beginCall()
        deliver(beginDispatch())
        if endDispatchUnchanged() {
            endCall()
        } else {
            endDispatchAndCall()
        }
    }

    /// A dispatch found a registered target gone: a change, deferred so that the last dispatch to end drops it and
    /// announces it (``SingleThreadedStrategy/endDispatches(dropping:)``).
    @usableFromInline @inline(never)
    func dropGoneTargetsWhenDispatchesEnd() {
        _withUnsafeGuaranteedRef {
            $0.core.deferAnnouncement(from: $0.core.table.respondingBits)
            $0.pinned.flagDispatches()
        }
    }

    /// Ends the dispatch begun last when another is in flight or the registrations changed during it, and the call;
    /// the last dispatch in flight announces the change.
    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    func endDispatchAndCall() {
        let wasLastAfterChange = endDispatchAfterChange()
        endCall()
        if wasLastAfterChange { _withUnsafeGuaranteedRef { $0.dispatchesEnded() } }
    }
}
