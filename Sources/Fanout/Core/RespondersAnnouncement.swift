/// Who is told when the set of messages that some registered target responds
/// to changes, and a change noticed while a dispatch is in flight, announced
/// when the last one ends.
///
/// The rules (every single-threaded storage; ``ConcurrentMultiplexer`` has its
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

/// A single-threaded storage whose dispatches its messages' lists mark
/// (`closureTable`, `selectorDictionary`): a dispatch pins its message's
/// list and nothing else, so the storage counts nothing per message. A
/// dispatch is in flight when some list is pinned, which a change, not a
/// dispatch, asks (O(*k*) in the lists). A change deferred during dispatches
/// flags the lists in flight (``PinnedArray/flagDispatches()``); the last
/// dispatch of each such list to end tells the storage, which announces the
/// change when no list is in flight any more.
internal protocol CountedDispatchStorage: AnnouncingStorage {
    /// Calls `body` with every list made so far.
    func forEachList(_ body: (AnyClosureList) -> Void)

    /// Whether a change made during the dispatches in flight waits to be
    /// announced.
    var announcementWaits: Bool { get set }
}

extension CountedDispatchStorage {
    var isDispatching: Bool {
        var isDispatching = false
        forEachList { if $0.isDispatching { isDispatching = true } }
        return isDispatching
    }

    func setAnnouncementDeferred(_ deferred: Bool) {
        announcementWaits = deferred
        if deferred { forEachList { $0.flagDispatches() } }
    }

    /// The last dispatch of a list ended flagged or after a change
    /// (`ClosureListStorage.listDispatchesEnded()`): announces the change
    /// that waits, if no list is in flight any more.
    func announceIfNoListDispatches() {
        if announcementWaits && !isDispatching { announceDeferred() }
    }
}
