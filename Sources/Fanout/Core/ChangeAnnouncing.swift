/// A single-threaded multiplexer (every strategy but ``ConcurrentMultiplexer``): the debug-build check of its
/// calls (``ThreadConfinement``), and the announcement of a change of the set of messages some registered target
/// responds to (``Multiplexing/respondersDidChange``'s rules): at once, with no access to the multiplexer's state
/// held, or, for a change made while a dispatch is in flight (a pinned buffer, the table's or a message's list's),
/// once the last one ends, and only if the set then differs from the set before.
@usableFromInline
internal protocol ChangeAnnouncing: AnyObject {
    associatedtype Schema: DelegateSchema
    /// What the table keeps per target: the target, its registration, or nothing (a strategy whose lists hold it).
    associatedtype Registration

    /// The registered targets and the messages each responds to.
    var table: RegistrationTable<Schema, Registration> { get set }

    var confinement: ThreadConfinement { get }

    /// The messages some registered target responds to, as bits by ordinal; a requirement, so that it is read in place.
    var respondingBits: UInt64 { get }

    /// Called when the set changes; `nil` to be told nothing.
    var respondersDidChange: (() -> Void)? { get }

    /// The set before the first change made during the dispatches in flight; `nil` when none was. Read and written
    /// in single instantaneous accesses, so conformers need no dynamic exclusivity check on it.
    var deferredAnnouncement: UInt64? { get set }

    var isDispatching: Bool { get }

    /// Marks the dispatches in flight so that the last one to end calls ``dispatchesEnded()``.
    func flagDispatches()

    /// The last dispatch in flight ended flagged, or after a change retired its buffer: announces the deferred
    /// change, if any, once no dispatch is in flight.
    func dispatchesEnded()
}

extension Unmanaged where Instance: ChangeAnnouncing {
    /// Begins a call of the multiplexer (``ThreadConfinement``), borrowed from the caller, who ends it with `end()`.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func beginCall() -> ThreadConfinement {
        let confinement = _withUnsafeGuaranteedRef { $0.confinement }
        confinement.begin(takeUnretainedValue())
        return confinement
    }
}

extension ChangeAnnouncing {
    @usableFromInline @inline(__always)
    var respondingBits: UInt64 { table.respondingBits }

    @usableFromInline
    func dispatchesEnded() {
        if deferredAnnouncement != nil && !isDispatching { announceDeferred() }
    }

    /// ``dispatchesEnded()`` of a strategy whose dispatches find dead targets: when a change is deferred (a target
    /// found dead is one), drops the dead targets with `drop`, then announces the change once.
    func endDispatches(dropping drop: () -> Void) {
        guard deferredAnnouncement != nil && !isDispatching else { return }
        drop()
        announceDeferred()
    }

    /// Runs `change`, a call that may change the registrations, then announces a change of the responding set.
    /// Called with no access to the multiplexer's state held, so that the handler may read it.
    @discardableResult @inline(__always)
    func announcingChanges<Value>(_ change: () -> Value) -> Value {
        let before = respondingBits
        let value = change()
        if respondingBits != before { announceChange(from: before) }
        return value
    }

    /// Announces a change from `before`: at once, or after the outermost dispatch when one is in flight.
    func announceChange(from before: UInt64) {
        if isDispatching {
            if deferredAnnouncement == nil { deferredAnnouncement = before }
            flagDispatches()
        } else {
            respondersDidChange?()
        }
    }

    /// After the last dispatch in flight ends: announces the deferred change, if the set differs from the set before.
    func announceDeferred() {
        guard let before = deferredAnnouncement else { return }
        deferredAnnouncement = nil
        if respondingBits != before { respondersDidChange?() }
    }
}
