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
/// outermost one (`closureTable`, `selectorDictionary`; the storages with a
/// pinned table learn it from the table).
///
/// A flag that the outermost dispatch sets and clears, not a count (as
/// ``PinnedArray/isPinned``; Findings 46). Dispatches nest on one stack, so
/// the outermost is the one that found it clear.
@frozen
@usableFromInline
internal struct DispatchesInFlight {
    /// Whether a dispatch is in flight.
    @usableFromInline var isActive = false

    /// Whether the last dispatch to end must announce a change.
    @usableFromInline var announcementDeferred = false

    @inlinable
    init() {}

    /// Marks a dispatch in flight, and answers whether one already was: then
    /// the dispatch is nested, and the outer one's end is the last.
    @inlinable @inline(__always)
    mutating func enter() -> Bool {
        let isNested = isActive
        isActive = true
        return isNested
    }

    /// Ends the dispatch that ``enter()`` answered `isNested` for: `true`
    /// when it was the last one in flight and a change made during it waits
    /// to be announced.
    @inlinable @inline(__always)
    mutating func exit(isNested: Bool) -> Bool {
        if _slowPath(isNested) { return false }
        isActive = false
        return _slowPath(announcementDeferred)
    }
}

/// A single-threaded storage whose dispatches ``DispatchesInFlight`` marks.
/// Its delivery marks itself in and out on the concrete type; only the
/// mutations, which are not on a dispatch's path, go through this protocol.
internal protocol FlaggedDispatchStorage: AnnouncingStorage {
    var dispatches: DispatchesInFlight { get set }
}

extension FlaggedDispatchStorage {
    var isDispatching: Bool { dispatches.isActive }

    func setAnnouncementDeferred(_ deferred: Bool) { dispatches.announcementDeferred = deferred }
}
