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

/// The dispatches in flight of a storage that counts them, to find the end
/// of the outermost one (`closureTable`, `selectorDictionary`; the storages
/// with a pinned table learn it from the table).
@frozen
@usableFromInline
internal struct DispatchCounter {
    @usableFromInline var depth = 0

    /// Whether the last dispatch to end must announce a change.
    @usableFromInline var announcementDeferred = false

    @inlinable
    init() {}

    /// Counts a dispatch in.
    @inlinable @inline(__always)
    mutating func enter() { depth &+= 1 }

    /// Counts a dispatch out: `true` when it was the last one in flight and a
    /// change made during it waits to be announced.
    @inlinable @inline(__always)
    mutating func exit() -> Bool {
        // Wrapping: a count of dispatches nested on one stack cannot overflow.
        depth &-= 1
        return _slowPath(depth == 0 && announcementDeferred)
    }
}

/// A single-threaded storage whose dispatches a ``DispatchCounter`` counts.
/// Its delivery counts itself in and out on the concrete type; only the
/// mutations, which are not on a dispatch's path, go through this protocol.
internal protocol CountedDispatchStorage: AnnouncingStorage {
    var dispatches: DispatchCounter { get set }
}

extension CountedDispatchStorage {
    var isDispatching: Bool { dispatches.depth > 0 }

    func setAnnouncementDeferred(_ deferred: Bool) { dispatches.announcementDeferred = deferred }
}
