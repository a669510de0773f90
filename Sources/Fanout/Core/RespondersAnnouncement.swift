/// Who is told when the set of messages that some registered target responds to changes, and a change noticed
/// while a dispatch is in flight, announced when the last one ends.
///
/// The rules (every single-threaded storage; ``ConcurrentMultiplexer`` states its own):
/// - the handler runs synchronously, on the thread that made the change, once the change is complete: it may
///   read the multiplexer (`responds(to:)`, `count`) and change it again;
/// - a change made while a dispatch is in flight (by a callback, or by a deinit a callback caused) is announced
///   once, after the outermost dispatch returns, and only if the set then differs from the set before it;
/// - a change made outside any dispatch, in a target's or its owner's deinit too, is announced at once.
internal struct RespondersAnnouncement {
    /// Called when the set changes; `nil` to be told nothing.
    var handler: (() -> Void)?

    /// The set before the first change made during the dispatches in flight; `nil` when none was.
    var deferredFrom: UInt64?
}

/// A single-threaded storage that announces changes of its responding set.
internal protocol AnnouncingStorage: AnyObject {
    /// The messages some registered target responds to, as bits by ordinal.
    var respondingBits: UInt64 { get }

    /// Whether a dispatch of this storage is in flight.
    var isDispatching: Bool { get }

    var announcement: RespondersAnnouncement { get set }

    /// Records that the last dispatch in flight to end must announce a change (`true`), or that it has (`false`).
    func setAnnouncementDeferred(_ deferred: Bool)
}

extension AnnouncingStorage {
    /// Runs `change`, a mutation of the registrations, then announces a change of the responding set. Called with
    /// no access to the storage's state held, so that the handler may read it.
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
            if announcement.deferredFrom == nil { announcement.deferredFrom = before }
            setAnnouncementDeferred(true)
        } else {
            announcement.handler?()
        }
    }

    /// After the last dispatch in flight ends: announces the deferred change, if the set differs from the set before.
    func announceDeferred() {
        setAnnouncementDeferred(false)
        guard let before = announcement.deferredFrom else { return }
        announcement.deferredFrom = nil
        if respondingBits != before { announcement.handler?() }
    }
}

/// A single-threaded storage whose dispatches only pin their message's list (`closureTable`,
/// `selectorDictionary`), so that it counts nothing per message: a dispatch is in flight when some list is
/// pinned, which a change asks (O(*k*) in the lists). A change deferred during dispatches flags the lists in
/// flight (``PinnedArray/flagDispatches()``); the last dispatch of each such list to end tells the storage,
/// which announces the change when no list is in flight any more.
internal protocol CountedDispatchStorage: AnnouncingStorage {
    /// Calls `body` with every list made so far.
    func forEachList(_ body: (AnyClosureList) -> Void)

    /// Whether a change made during the dispatches in flight waits to be announced.
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

    /// A list's last dispatch ended flagged or after a change: announces the waiting change if no list is in
    /// flight any more.
    func announceIfNoListDispatches() {
        if announcementWaits && !isDispatching { announceDeferred() }
    }
}
