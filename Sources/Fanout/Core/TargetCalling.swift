/// One of Fanout's strategies: a multiplexer whose delivery calls its targets one by one, from which
/// ``Delivering``'s deliveries follow. Not public API (an underscored name): public only because those
/// deliveries are, and a client writes no conformance to it.
public protocol _TargetCalling: Multiplexing {
    /// The strategy's delivery: calls, with `invoke`, every registered target that responds to the message named
    /// `key`, in registration order, while `shouldContinue` accepts the answers.
    ///
    /// `multiplexer` is unretained: the caller holds it for the whole call, and the delivery borrows it for each
    /// read, so that nothing retains it while the targets run. What it pins (or, for `concurrent`, the snapshot it
    /// reads) keeps the targets alive.
    static func _deliver<Result>(
        _ key: Schema.Key, in multiplexer: Unmanaged<Self>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result)
}

extension _TargetCalling {
    /// Sends `message` to each registered target that responds to it, in
    /// registration order, for as long as `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for `message`.
    @inlinable @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        Self._deliver(message.key, in: .passUnretained(self), while: shouldContinue) {
            message.invoke($0, arguments)
        }
    }

    /// Sends a message of two arguments as ``deliver(_:_:while:)`` does, with the arguments apart, so that a
    /// reference among them is not retained (`ArgumentPair.swift`); a descriptor without a two-argument body takes
    /// the tuple, built once.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for `message`.
    @inlinable @inline(__always)
    public func deliver<First, Second, Result>(
        _ message: Message<Schema, (First, Second), Result>, _ first: First, _ second: Second,
        while shouldContinue: (Result) -> Bool
    ) {
        guard let body = message.pairBody() as ((Schema.Target, First, Second) -> Result)? else {
            return deliver(message, (first, second), while: shouldContinue)
        }
        Self._deliver(message.key, in: .passUnretained(self), while: shouldContinue) { body($0, first, second) }
    }
}

/// A single-threaded storage: the debug-build check of its calls.
@usableFromInline
internal protocol ConfinedStorage: AnyObject {
    var confinement: ThreadConfinement { get }
}

extension Unmanaged where Instance: ConfinedStorage {
    /// Begins a call of the storage (``ThreadConfinement``), borrowing it from the caller, who ends it with `end()`.
    @inlinable @inline(__always)
    internal func beginCall() -> ThreadConfinement {
        let confinement = _withUnsafeGuaranteedRef { $0.confinement }
        confinement.begin(takeUnretainedValue())
        return confinement
    }
}

/// A single-threaded storage whose targets are in a ``RegistrationTable`` that a dispatch iterates in place.
@usableFromInline
internal protocol PinnedTableStorage: ConfinedStorage, Multiplexing, PinnedArrayOwner
where PinnedElement == RegistrationTable<Schema, Registration>.Entry {
    associatedtype Registration
    var table: RegistrationTable<Schema, Registration> { get set }

    /// Announces the change made during the dispatches that just ended.
    func dispatchesEnded()
}

extension PinnedTableStorage {
    /// The table's registrations, which a dispatch pins.
    @inlinable
    var pinned: PinnedArray<PinnedElement> {
        get { table.pinned }
        _modify { yield &table.pinned }
    }
}

extension AnnouncingStorage where Self: PinnedTableStorage {
    /// Nothing to record: a change deferred during dispatches retired the buffer they read, and the end that frees
    /// the last retired buffer announces it (``PinnedDispatch/endAfterChange(_:_:)``).
    func setAnnouncementDeferred(_ deferred: Bool) {}
}

/// A dispatch over a pinned table: a call of the storage, and its buffer pinned from start to end.
@frozen
@usableFromInline
internal enum PinnedDispatch<Storage: PinnedTableStorage> {
    /// The registrations as a dispatch reads them: as they were when it began.
    @usableFromInline
    typealias Entries = UnsafeBufferPointer<RegistrationTable<Storage.Schema, Storage.Registration>.Entry>

    /// Begins a call of `storage`, pins its table's buffer, runs `deliver` over it, then unpins it, or frees what a
    /// change retired meanwhile, and ends the call; the last dispatch in flight, when the registrations changed
    /// during it, then announces the change (``RespondersAnnouncement``). The caller holds `storage`. Only a nested
    /// dispatch, or an end after a change, goes out of line (see ``PinnedArray``).
    @inlinable @inline(__always)
    static func run(_ storage: Unmanaged<Storage>, _ deliver: (Entries) -> Void) {
        let call = storage.beginCall()
        deliver(storage.beginDispatch())
        if storage.endDispatchUnchanged() {
            call.end()
        } else {
            endAfterChange(storage, call)
        }
    }

    /// Ends the dispatch begun last when another is in flight or the registrations changed during it, and the call;
    /// the last dispatch in flight announces the change.
    @inlinable @inline(never)
    static func endAfterChange(_ storage: Unmanaged<Storage>, _ call: ThreadConfinement) {
        let wasLastAfterChange = storage.endDispatchAfterChange()
        call.end()
        if wasLastAfterChange { storage._withUnsafeGuaranteedRef { $0.dispatchesEnded() } }
    }
}
