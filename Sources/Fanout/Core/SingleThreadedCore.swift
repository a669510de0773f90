import FanoutSupport

/// What every single-threaded multiplexer (every strategy but ``ConcurrentMultiplexer``) keeps besides its own:
/// its registrations, the lists of a strategy that keeps one per message, the debug-build check of its calls, and a
/// change of the responding set deferred during dispatches, with the rules on it.
///
/// Its class holds it in one stored property, `core`, whose accesses are instantaneous: every user call
/// (`responds(to:)`, a callback, a deinit, ``Multiplexing/respondersDidChange``) runs with no access to it open,
/// which `FANOUT_CHECK_EXCLUSIVITY` builds check.
@usableFromInline
internal struct SingleThreadedCore<Schema: DelegateSchema, Registration> {
    /// A list strategy's list per message ordinal, `nil` until a target that responds to the message is added; a
    /// list, once made, stays for the multiplexer's lifetime. Empty in a table strategy.
    @usableFromInline var lists: ContiguousArray<AnyResponderList?>

    /// The registered targets and the messages each responds to; a table strategy's dispatches pin its array.
    @usableFromInline var table = RegistrationTable<Schema, Registration>()

    #if DEBUG
        /// Which thread is inside a call of the multiplexer, and how deeply (`FanoutSupport/Confinement.c`), in a heap
        /// buffer that stays in place: read and written atomically, from any thread. Release builds check nothing.
        @usableFromInline let callRecord = ManagedBuffer<Void, fanout_confinement>.create(minimumCapacity: 1) {
            $0.withUnsafeMutablePointerToElements { $0.initialize(to: fanout_confinement()) }
        }
    #endif

    /// The responding set before the first change made during the dispatches in flight; `nil` when none was.
    @usableFromInline var deferredAnnouncement: UInt64?

    /// A core whose dispatches pin its table, or, with `listPerMessage`, one list per message.
    init(listPerMessage: Bool = false) {
        lists = listPerMessage ? ContiguousArray(repeating: nil, count: Schema.Key.allCases.count) : []
    }

    /// Begins a call of `owner`, the multiplexer: every public call begins and ends one.
    ///
    /// - Precondition: No other thread is inside a call of `owner` (debug builds): it is single-threaded.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    func beginCall(of owner: AnyObject) {
        #if DEBUG
            enterCall(of: owner)
        #endif
    }

    /// Ends the call begun last.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    func endCall() {
        #if DEBUG
            callRecord.withUnsafeMutablePointerToElements { fanout_confinement_exit($0) }
        #endif
    }

    #if DEBUG
        @usableFromInline
        func enterCall(of owner: AnyObject) {
            guard callRecord.withUnsafeMutablePointerToElements({ fanout_confinement_enter($0) }) != 0 else {
                preconditionFailure(
                    "\(type(of: owner)) was called from a second thread while a dispatch or a mutation was in progress "
                        + "on another: it is single-threaded. Share a ConcurrentMultiplexer (DispatchStrategy.concurrent) "
                        + "between threads instead.")
            }
        }
    #endif

    /// Whether a dispatch is in flight: the table's array is pinned, or some list's (O(*k*) in the lists).
    @inline(__always)
    var isDispatching: Bool {
        if table.isDispatching { return true }
        for index in lists.indices where lists[index]?.isDispatching ?? false { return true }
        return false
    }

    /// Records a change from `before` made during the dispatches in flight, and flags the lists in flight, so that the
    /// last one to end announces it. (A table's dispatches need no flag: the change retired the buffer they read.)
    @usableFromInline
    mutating func deferAnnouncement(from before: UInt64) {
        if deferredAnnouncement == nil { deferredAnnouncement = before }
        for index in lists.indices { lists[index]?.flagDispatches() }
    }

    /// The list of the message with ordinal `ordinal`, if one was made, unretained: the core keeps it for the
    /// multiplexer's lifetime. Mutating, so that code generic over the strategy reads it in place.
    mutating func list(at ordinal: Int) -> Unmanaged<AnyResponderList>? {
        lists[ordinal].map(Unmanaged.passUnretained)
    }

    /// Whether a change is deferred and no dispatch is in flight any more. Mutating, so that code generic over the
    /// strategy reads the core in place.
    mutating func isDeferralOver() -> Bool {
        deferredAnnouncement != nil && !isDispatching
    }

    /// Ends the deferral of a change: whether the responding set now differs from the set before it, and so is to be
    /// announced.
    ///
    /// - Precondition: No dispatch is in flight (``isDeferralOver()``).
    mutating func endDeferral() -> Bool {
        guard let before = deferredAnnouncement else { return false }
        deferredAnnouncement = nil
        return table.respondingBits != before
    }
}

/// A single-threaded strategy: a multiplexer that holds a ``SingleThreadedCore``; a table strategy is also the
/// ``PinnedArrayOwner`` of its table's array, which its dispatches pin. It announces a change of the set of messages
/// some registered target responds to (``Multiplexing/respondersDidChange``'s rules) at once, with no access to the
/// core open, or, for a change made while a dispatch is in flight, once the last one ends, and only if the set then
/// differs from the set before.
///
/// Code generic over the strategy reads the core in place, through mutating calls (`core`'s `modify` accessor yields
/// it), or only in debug builds: a read through its getter is a copy of the whole core (`Benchmarks/Notebook.md` 77).
@usableFromInline
internal protocol SingleThreadedStrategy: Multiplexing {
    /// What the table keeps per target: the target, its registration, or nothing (a strategy whose lists hold it).
    associatedtype Registration

    var core: SingleThreadedCore<Schema, Registration> { get set }

    /// Drops the registrations whose targets are dead, giving back their memory and nothing else: it runs no user
    /// code and announces nothing (its caller does). Called inside ``confined(_:)``, with no access to `core` open,
    /// by ``dispatchesEnded()`` and by the strategy's own `count`. None by default: a strategy that holds its targets
    /// strongly finds none dead.
    func dropDeadTargets()
}

extension Unmanaged where Instance: SingleThreadedStrategy {
    /// Begins a call of the multiplexer, borrowed from the caller, who ends it with ``endCall()``.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func beginCall() {
        _withUnsafeGuaranteedRef { $0.core.beginCall(of: $0) }
    }

    /// Ends the call begun last.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func endCall() {
        _withUnsafeGuaranteedRef { $0.core.endCall() }
    }
}

extension SingleThreadedStrategy {
    /// The strategy's table: its registrations, each with what the strategy keeps per target.
    @usableFromInline
    typealias Table = RegistrationTable<Schema, Registration>

    /// Runs `body` as one call of the multiplexer (``SingleThreadedCore/beginCall(of:)``); release builds check
    /// nothing, and do not read the core here.
    @discardableResult @inline(__always)
    func confined<Value>(_ body: () -> Value) -> Value {
        #if DEBUG
            core.beginCall(of: self)
            defer { core.endCall() }
        #endif
        return body()
    }

    @usableFromInline
    func dropDeadTargets() {}

    /// The last dispatch in flight ended flagged, or after a change retired its buffer: once no dispatch is in
    /// flight and a change is deferred, drops the dead targets (a dispatch that finds one defers a change,
    /// `dropGoneTargetsWhenDispatchesEnd()`), then announces the deferred change once, if the set differs from the
    /// set before. Not a requirement, and so not for a strategy to declare: generic code would not call its own;
    /// ``dropDeadTargets()`` is what a strategy adds.
    @usableFromInline
    func dispatchesEnded() {
        guard core.isDeferralOver() else { return }
        confined { dropDeadTargets() }
        if core.endDeferral() { respondersDidChange?() }
    }

    /// Runs `change`, a call that may change the registrations, then announces a change of the responding set.
    /// Called with no access to the core open, so that the handler may read the multiplexer.
    @discardableResult @inline(__always)
    func announcingChanges<Value>(_ change: () -> Value) -> Value {
        let before = core.table.respondingBits
        let value = change()
        if core.table.respondingBits != before { announceChange(from: before) }
        return value
    }

    /// Announces a change from `before`: at once, or after the outermost dispatch when one is in flight.
    @inline(__always)
    func announceChange(from before: UInt64) {
        if core.isDispatching {
            core.deferAnnouncement(from: before)
        } else {
            respondersDidChange?()
        }
    }
}
