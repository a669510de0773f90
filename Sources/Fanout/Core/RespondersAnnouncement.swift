/// Who is told when the set of messages that some registered target responds
/// to changes, and a change noticed while a dispatch is in flight, announced
/// when the last one ends.
///
/// The rules (every single-threaded storage; ``ConcurrentStorage`` has its
/// own, in its documentation):
/// - the handler runs synchronously, on the thread that made the change, once
///   the change is complete: it may read the multiplexer (`responds(to:)`,
///   `count`) and change it again;
/// - a change made while a dispatch is in flight (by a callback, or by a
///   deinit that a callback caused) is announced once, after the outermost
///   dispatch returns, and only if the set then differs from the set before
///   the first such change;
/// - a change made outside any dispatch, in a target's or its owner's deinit
///   too, is announced at once, from inside that call or deinit.
internal struct RespondersAnnouncement {
    /// Called when the set changes; `nil` to be told nothing.
    var handler: (() -> Void)?

    /// The set when the first change during the dispatches in flight was
    /// made; `nil` when none was.
    var deferredFrom: UInt64?
}

/// A single-threaded storage that announces changes of its responding set.
internal protocol AnnouncingStorage: AnyObject {
    /// The messages some registered target responds to, as bits by ordinal.
    var respondingBits: UInt64 { get }

    /// Whether a dispatch of this storage is in flight.
    var isDispatching: Bool { get }

    var announcement: RespondersAnnouncement { get set }

    /// Records for the dispatches in flight that the last one to end must
    /// announce a change (`true`), or that it has (`false`).
    func setAnnouncementDeferred(_ deferred: Bool)
}

extension AnnouncingStorage {
    /// Runs `change`, a mutation of the registrations, then announces a change
    /// of the responding set (see ``RespondersAnnouncement``). Called with no
    /// access to the storage's state held, so that the handler may read it.
    @discardableResult @inline(__always)
    func announcingChanges<Value>(_ change: () -> Value) -> Value {
        let before = respondingBits
        let value = change()
        if respondingBits != before { announceChange(from: before) }
        return value
    }

    /// Announces a change of the responding set from `before`: at once, or
    /// after the outermost dispatch when one is in flight.
    func announceChange(from before: UInt64) {
        if isDispatching {
            if announcement.deferredFrom == nil { announcement.deferredFrom = before }
            setAnnouncementDeferred(true)
        } else {
            announcement.handler?()
        }
    }

    /// The last dispatch in flight has ended after a change was deferred:
    /// announces it, if the set now differs from the set before the first.
    func announceDeferred() {
        setAnnouncementDeferred(false)
        guard let before = announcement.deferredFrom else { return }
        announcement.deferredFrom = nil
        if respondingBits != before { announcement.handler?() }
    }
}

/// Whether a dispatch of a storage is in flight, to find the end of the
/// last one (`closureTable`, `selectorDictionary`; the storages with a pinned
/// table learn it from the table).
///
/// A count, kept as ``PinnedArray`` keeps its pins: in one word with the
/// flag of a change to announce, so that a dispatch with no other in flight,
/// the common case, begins finding it `0` and ends finding it
/// ``enteredOnce``, one load and one store at each end, and keeps nothing of
/// its own across its calls (Findings 47). Dispatches nest on one stack, so
/// the last to end is the outermost.
@frozen
@usableFromInline
internal struct DispatchesInFlight {
    /// The number of dispatches in flight, times two, plus one when the last
    /// to end must announce a change.
    @usableFromInline var state = 0

    @inlinable
    init() {}

    /// ``state`` when one dispatch is in flight and no change waits.
    @usableFromInline
    static var enteredOnce: Int { 2 }

    /// Whether a dispatch is in flight.
    var isActive: Bool { state >> 1 != 0 }

    /// Whether the last dispatch to end must announce a change.
    var announcementDeferred: Bool {
        get { state & 1 != 0 }
        set { state = newValue ? state | 1 : state & ~1 }
    }

    /// Marks a dispatch in flight. A storage reached through a protocol takes
    /// the steps one by one (``isIdle``, then ``enterFirst()`` or
    /// ``enterAgain()``), out of line but for the first.
    @inlinable @inline(__always)
    mutating func enter() {
        if _fastPath(isIdle) { enterFirst() } else { enterAgain() }
    }

    /// Ends the dispatch begun last: `true` when it was the last one in
    /// flight and a change made during the dispatches waits to be announced.
    /// A storage reached through a protocol takes the steps one by one
    /// (``isEnteredOnce``, then ``exitLast()`` or ``exitAfterChange()``).
    @inlinable @inline(__always)
    mutating func exit() -> Bool {
        guard _fastPath(isEnteredOnce) else { return exitAfterChange() }
        exitLast()
        return false
    }

    /// Whether no dispatch is in flight (and so no change waits).
    @inlinable
    var isIdle: Bool { state == 0 }

    /// Marks a dispatch in flight when ``isIdle``.
    @inlinable @inline(__always)
    mutating func enterFirst() { state = Self.enteredOnce }

    /// Marks one more dispatch in flight, when not ``isIdle``. (Out of line:
    /// inline, the optimizer merges it with ``enterFirst()`` into one
    /// increment, a load and a store that the next dispatch's load waits for.)
    @inlinable @inline(never)
    mutating func enterAgain() { state += 2 }

    /// Whether one dispatch is in flight and no change waits: it ends with
    /// ``exitLast()``.
    @inlinable
    var isEnteredOnce: Bool { state == Self.enteredOnce }

    /// Ends the dispatch in flight when ``isEnteredOnce``.
    @inlinable @inline(__always)
    mutating func exitLast() { state = 0 }

    /// ``exit()`` when another dispatch is in flight or a change waits.
    @inlinable @inline(never)
    mutating func exitAfterChange() -> Bool {
        state -= 2
        return state == 1
    }
}

/// A single-threaded storage whose dispatches ``DispatchesInFlight`` marks.
/// Its delivery marks itself in and out on the concrete type; only the
/// mutations, which are not on a dispatch's path, go through this protocol.
internal protocol CountedDispatchStorage: AnnouncingStorage {
    var dispatches: DispatchesInFlight { get set }
}

extension CountedDispatchStorage {
    var isDispatching: Bool { dispatches.isActive }

    func setAnnouncementDeferred(_ deferred: Bool) { dispatches.announcementDeferred = deferred }
}
