/// An array that dispatches iterate in place, counting no reference: the registrations of ``RegistrationTable``
/// and the responders of a ``ResponderList``.
///
/// A dispatch pins the buffer and reads it through a pointer until it ends (``PinnedArrayOwner``'s
/// `beginDispatch()` and its ends). A change meanwhile (``modify(_:)``) first retires the pinned buffer with its
/// count of pins, so that the change copies the buffer instead of writing where dispatches read; a retired buffer
/// is freed only when the last dispatch that pinned it ends. So every element of a pinned buffer, and what it
/// holds, stays alive until the dispatch ends, whatever its callbacks change, and each dispatch sees the elements
/// as they were when it began.
///
/// An end unpins the right buffer knowing only that its dispatch is the one begun last (dispatches nest): if
/// nothing changed since it began, its buffer is still the current one and ``pins`` counts it; otherwise the first
/// change retired its buffer, and every buffer pinned since was pinned by a nested dispatch that has ended, so
/// ``pins`` is `0` and its buffer is the last one retired.
///
/// Only the first change after a pin retires the buffer (leaving ``pins`` at `0`); later ones write to the copy,
/// which no dispatch reads: at most one buffer is retired per dispatch in flight. Single-threaded, as the storages
/// that use it, so the pins are a plain count.
@usableFromInline
internal struct PinnedArray<Element> {
    @usableFromInline
    internal private(set) var elements: ContiguousArray<Element> = []

    /// Buffers that dispatches in flight still read, replaced since by a change, oldest first, each with the
    /// number of those dispatches: freed when the last of them ends.
    @usableFromInline
    internal private(set) var retired: [(buffer: ContiguousArray<Element>, pins: Int)] = []

    /// The pins of the buffer of `elements` times four, plus two when the dispatches in flight are flagged
    /// (``flagDispatches()``), plus one while `retired` holds a buffer or one handed over is being dropped
    /// (``endDispatchAfterChange()``): the outermost dispatch sets it from `0` to ``pinnedOnce`` and back.
    @usableFromInline
    internal private(set) var state = 0

    /// ``state`` when one dispatch pins the buffer and nothing is retired.
    @usableFromInline
    internal static var pinnedOnce: Int { 4 }

    /// ``state``'s bit: the dispatches in flight are flagged.
    @usableFromInline
    internal static var flagged: Int { 2 }

    @usableFromInline @_alwaysEmitIntoClient
    internal init() {}

    /// The number of dispatches in flight that iterate the buffer of `elements`.
    internal var pins: Int { state >> 2 }

    /// Whether a dispatch in flight iterates the buffer of `elements`.
    @usableFromInline @_alwaysEmitIntoClient
    internal var isPinned: Bool { state >> 2 != 0 }

    /// Whether `retired` holds a buffer, or a buffer handed over is being dropped.
    internal var hasRetired: Bool { state & 1 != 0 }

    /// Whether a dispatch is in flight, pinning the buffer of `elements` or one that `retired` keeps for it.
    internal var isDispatching: Bool { state != 0 }

    /// Changes the elements, first retiring the buffer if a dispatch pinned it (then `change` writes to a copy).
    @inline(__always)
    internal mutating func modify<Value>(_ change: (inout ContiguousArray<Element>) -> Value) -> Value {
        if isPinned {
            retired.append((buffer: elements, pins: pins))
            state = state & Self.flagged | 1
        }
        return change(&elements)
    }

    /// Whether no dispatch is in flight, so that the one that begins now begins with ``pinFirst()``.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal var isIdle: Bool { state == 0 }

    /// Starts a dispatch when ``isIdle``: pins the buffer, which ``pinnedElements`` then reads.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal mutating func pinFirst() {
        assert(isIdle)
        state = Self.pinnedOnce
    }

    /// Starts a dispatch when not ``isIdle``: pins the buffer once more.
    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    internal mutating func pinAgain() {
        state += Self.pinnedOnce
    }

    /// Flags the dispatches in flight, if any: the last to end takes ``endDispatchAfterChange()``, which answers
    /// `true` (a closure storage, whose dispatches span several arrays, then announces a change made meanwhile).
    internal mutating func flagDispatches() {
        if state != 0 { state |= Self.flagged }
    }

    /// The buffer of `elements`, which the caller pinned; mutating, so that the array is read in place, not copied.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal mutating func pinnedElements() -> UnsafeBufferPointer<Element> {
        // The pointer outlives the closure: valid while the buffer is pinned.
        elements.withUnsafeBufferPointer { $0 }
    }

    /// Whether one dispatch pins the buffer and nothing is retired: the dispatch that ends is the only one in
    /// flight, with nothing changed since it began, and ends with ``unpin()``.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal var isPinnedOnce: Bool { state == Self.pinnedOnce }

    /// Ends the dispatch in flight when ``isPinnedOnce``.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal mutating func unpin() {
        assert(isPinnedOnce)
        state = 0
    }

    /// Ends the dispatch begun last when not ``isPinnedOnce``: unpins `elements` if it is still the buffer the
    /// dispatch pinned, otherwise the last retired buffer, handed over to the caller once no dispatch pins it.
    ///
    /// The caller drops a handed-over buffer once its access to this array has ended, then calls ``endRelease()``:
    /// dropping it may free targets whose deinits use the storage (add, remove, dispatch), which must not happen
    /// while an access to the array is open or its state half-changed. Meanwhile the retired bit of ``state`` stays
    /// set, so that a change made by the drop counts as made during this dispatch and is announced when it ends.
    ///
    /// - Returns: The buffer handed over, if any; otherwise whether this ended the last dispatch in flight, flagged.
    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    internal mutating func endDispatchAfterChange() -> (released: ContiguousArray<Element>?, wasLast: Bool) {
        if isPinned {
            state -= Self.pinnedOnce
        } else {
            precondition(!retired.isEmpty, "a dispatch ended that no buffer was pinned for")
            retired[retired.count - 1].pins -= 1
            if retired[retired.count - 1].pins == 0 { return (retired.removeLast().buffer, false) }
        }
        return (nil, endFlagged())
    }

    /// Finishes the end of a dispatch that handed over a buffer, once the caller dropped it. Any dispatch the drop
    /// began has ended, so `retired` is as it was before the drop.
    ///
    /// - Returns: `true` when no retired buffer is left, or when this ended the last dispatch in flight, flagged.
    @usableFromInline @inline(never)
    internal mutating func endRelease() -> Bool {
        let isLast = retired.isEmpty
        if isLast { state &= ~1 }
        return endFlagged() || isLast
    }

    /// Clears ``state`` when the last dispatch in flight ended flagged, and answers whether it did.
    @usableFromInline @_alwaysEmitIntoClient
    internal mutating func endFlagged() -> Bool {
        guard state == Self.flagged else { return false }
        state = 0
        return true
    }

    /// Calls `update` with each element of each retired buffer, in place: dispatches that read them see the change.
    ///
    /// Through the buffers' memory, not through `retired`: a write through the array would copy a buffer that
    /// something else also holds (`elements`, or another entry of `retired`) and leave the copy where a dispatch's
    /// pins are counted, freeing the buffer it reads too early. `update` may change only what owns no reference (an
    /// element's trivial fields): no element is copied, moved or freed.
    internal mutating func updateRetiredInPlace(_ update: (UnsafeMutablePointer<Element>) -> Void) {
        for index in retired.indices {
            retired[index].buffer.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let elements = UnsafeMutablePointer(mutating: base)
                for offset in 0..<buffer.count { update(elements + offset) }
            }
        }
    }
}

/// An object whose dispatches iterate a ``PinnedArray`` in place: a table strategy or a responder list.
@usableFromInline
internal protocol PinnedArrayOwner: AnyObject {
    associatedtype PinnedElement
    var pinned: PinnedArray<PinnedElement> { get set }
}

/// The pin operation, on an owner the caller holds: a dispatch pins its owner's array, then unpins it or frees what
/// a change retired meanwhile, outside any access to the array (``PinnedArray/endDispatchAfterChange()``). Each
/// step borrows the owner for one access: no address inside it is kept across the targets' calls.
extension Unmanaged where Instance: PinnedArrayOwner {
    /// Pins the owner's array and returns its buffer, valid until the matching end.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func beginDispatch() -> UnsafeBufferPointer<Instance.PinnedElement> {
        if _fastPath(_withUnsafeGuaranteedRef { $0.pinned.isIdle }) {
            _withUnsafeGuaranteedRef { $0.pinned.pinFirst() }
        } else {
            pinAgain()
        }
        return _withUnsafeGuaranteedRef { $0.pinned.pinnedElements() }
    }

    /// Ends the dispatch begun last when it is the only one in flight and nothing changed: then unpins and answers
    /// `true`; otherwise answers `false`, and the caller ends it with ``endDispatchAfterChange()``.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func endDispatchUnchanged() -> Bool {
        guard _fastPath(_withUnsafeGuaranteedRef { $0.pinned.isPinnedOnce }) else { return false }
        _withUnsafeGuaranteedRef { $0.pinned.unpin() }
        return true
    }

    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    internal func pinAgain() {
        _withUnsafeGuaranteedRef { $0.pinned.pinAgain() }
    }

    /// Ends the dispatch begun last when ``endDispatchUnchanged()`` did not; a buffer no dispatch reads any more is
    /// dropped with no access to the array open, since the targets' deinits may use the owner's multiplexer.
    ///
    /// - Returns: `true` when it ended the last dispatch in flight after a change, or flagged.
    @usableFromInline @_alwaysEmitIntoClient @inline(never)
    internal func endDispatchAfterChange() -> Bool {
        var end = _withUnsafeGuaranteedRef { $0.pinned.endDispatchAfterChange() }
        guard end.released != nil else { return end.wasLast }
        end.released = nil  // the buffer handed over, dropped here: after the access above, before `endRelease`
        return _withUnsafeGuaranteedRef { $0.pinned.endRelease() }
    }
}
