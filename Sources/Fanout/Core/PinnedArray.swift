/// An array that dispatches iterate in place, with no reference counted: the
/// registrations of ``RegistrationTable`` and the responders of a
/// ``ClosureList``.
///
/// A dispatch pins the buffer (``beginDispatch()``) and reads it through a
/// pointer until it ends (``endDispatch()``). A change meanwhile
/// (``modify(_:)``) first retires the pinned buffer (keeps it in `retired`,
/// with its count of pins), so that the change copies the buffer instead of
/// writing where the dispatches read, and a retired buffer is freed only when
/// the last dispatch that pinned it ends. So every element of a pinned
/// buffer, and what it holds, stays alive until the dispatch ends, whatever
/// the dispatch's callbacks change; and each dispatch sees the elements as
/// they were when it began.
///
/// Why a dispatch's end unpins the right buffer, knowing nothing of the
/// dispatch but that it is the one begun last (dispatches end in the reverse
/// order of their beginnings: one begun inside another ends first): when no
/// change was made since it began, its buffer is still the current one, and
/// ``pins`` counts it; when one was, the first such change retired its buffer,
/// and every buffer pinned since was pinned by a dispatch begun inside it,
/// which has ended and unpinned it, so ``pins`` is `0` and its buffer is the
/// last one retired.
///
/// Retired buffers stay bounded: only the first change after a dispatch pins
/// the buffer retires it (it leaves ``pins`` at `0`), later ones write to the
/// copy, which no dispatch reads; each dispatch pins one buffer; so there is
/// at most one retired buffer per dispatch in flight, however often the
/// callbacks change the array.
///
/// Single-threaded: the storages that use it are used by one thread at a
/// time, so the pins are a plain count, not an atomic one.
@usableFromInline
internal struct PinnedArray<Element> {
    /// The elements in order.
    @usableFromInline
    internal private(set) var elements: ContiguousArray<Element> = []

    /// Buffers of `elements` that dispatches in flight still iterate, replaced
    /// since by a change, in the order they were retired, each with the
    /// number of those dispatches: freed when the last of them ends.
    @usableFromInline
    internal private(set) var retired: [RetiredBuffer<Element>] = []

    /// The number of dispatches in flight that iterate the buffer of
    /// `elements`, times four, plus two when the dispatches in flight are
    /// flagged (``flagDispatches()``), plus one when `retired` holds a
    /// buffer or the end of a dispatch is dropping one it handed over
    /// (``endDispatchAfterChange()``): one word,
    /// so that the outermost dispatch, the common case, begins finding it `0`
    /// and sets it to ``pinnedOnce``, and, when nothing changed meanwhile,
    /// ends finding it ``pinnedOnce`` and clears it. One load and one store
    /// at each end, and nothing of the dispatch kept across its calls. The
    /// retired bit is kept beside `retired` so that reading it through a
    /// storage's table copies no array (a retain and a release).
    @usableFromInline
    internal private(set) var state = 0

    /// ``state`` when one dispatch pins the buffer and nothing is retired.
    @usableFromInline
    internal static var pinnedOnce: Int { 4 }

    /// ``state``'s bit: the dispatches in flight are flagged.
    @usableFromInline
    internal static var flagged: Int { 2 }

    @inlinable
    internal init() {}

    /// The number of dispatches in flight that iterate the buffer of `elements`.
    internal var pins: Int { state >> 2 }

    /// Whether a dispatch in flight iterates the buffer of `elements`.
    @inlinable
    internal var isPinned: Bool { state >> 2 != 0 }

    /// Whether `retired` holds a buffer, or a buffer handed over is being
    /// dropped.
    internal var hasRetired: Bool { state & 1 != 0 }

    /// Whether a dispatch is in flight: each pins the buffer of `elements` or
    /// one that `retired` keeps for it.
    internal var isDispatching: Bool { state != 0 }

    /// Changes the elements, retiring the buffer first if a dispatch pinned
    /// it: the change then copies the buffer instead of writing where the
    /// dispatch reads. Only the first change after a dispatch pins the buffer
    /// retires it; later ones write to the copy, which no dispatch iterates.
    ///
    /// - Complexity: O(1) plus `change`, plus a copy of the elements when a
    ///   dispatch pinned the buffer.
    @inline(__always)
    internal mutating func modify<Value>(_ change: (inout ContiguousArray<Element>) -> Value) -> Value {
        if isPinned {
            retired.append(RetiredBuffer(buffer: elements, pins: pins))
            state = state & Self.flagged | 1
        }
        return change(&elements)
    }

    /// Starts a dispatch: pins the buffer of `elements` and returns it; the
    /// dispatch ends with ``endDispatch()``.
    ///
    /// The buffer stays valid until the matching end, for the reasons in the
    /// type's documentation, provided the value that holds this array lives
    /// until then (the caller holds it). A storage that reaches its table
    /// through a protocol takes the steps one by one (``isIdle``,
    /// ``pinFirst()`` or ``pinAgain()``, ``pinnedElements``).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    internal mutating func beginDispatch() -> UnsafeBufferPointer<Element> {
        if _fastPath(isIdle) { pinFirst() } else { pinAgain() }
        return pinnedElements
    }

    /// Ends the dispatch begun last (see ``beginDispatch()``). A storage that
    /// reaches its table through a protocol takes the steps one by one
    /// (``isPinnedOnce``, then ``unpin()`` or ``endDispatchAfterChange()``).
    ///
    /// - Returns: How the dispatch ended (see ``endDispatchAfterChange()``).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    internal mutating func endDispatch() -> DispatchEnd<Element> {
        guard _fastPath(isPinnedOnce) else { return endDispatchAfterChange() }
        unpin()
        return .ended(wasLast: false)
    }

    /// Whether no dispatch is in flight: the one that begins now begins with
    /// ``pinFirst()``.
    @inlinable
    internal var isIdle: Bool { state == 0 }

    /// Starts a dispatch when ``isIdle``: pins the buffer, which
    /// ``pinnedElements`` then reads.
    ///
    /// - Precondition: ``isIdle``.
    @inlinable @inline(__always)
    internal mutating func pinFirst() {
        assert(isIdle)
        state = Self.pinnedOnce
    }

    /// Starts a dispatch when not ``isIdle``: pins the buffer once more.
    /// (Out of line: inline, the optimizer merges it with ``pinFirst()``
    /// into one increment of `state`, a load and a store that the next
    /// dispatch's load waits for.)
    @inlinable @inline(never)
    internal mutating func pinAgain() {
        state += Self.pinnedOnce
    }

    /// Flags the dispatches in flight, if any: the last of them to end takes
    /// ``endDispatchAfterChange()``, which answers `true` (a storage whose
    /// dispatches span several arrays, the closure strategies', announces a
    /// change made meanwhile then).
    internal mutating func flagDispatches() {
        if state != 0 { state |= Self.flagged }
    }

    /// The buffer of `elements`, which the caller pinned.
    @inlinable
    internal var pinnedElements: UnsafeBufferPointer<Element> {
        // The pointer outlives the closure: valid while the buffer is pinned.
        elements.withUnsafeBufferPointer { $0 }
    }

    /// Whether one dispatch pins the buffer and nothing is retired: then the
    /// dispatch that ends is the only one in flight, with nothing changed
    /// since it began, and ends with ``unpin()``.
    @inlinable
    internal var isPinnedOnce: Bool { state == Self.pinnedOnce }

    /// Ends the dispatch in flight when ``isPinnedOnce``.
    ///
    /// - Precondition: ``isPinnedOnce``.
    @inlinable @inline(__always)
    internal mutating func unpin() {
        assert(isPinnedOnce)
        state = 0
    }

    /// Ends the dispatch begun last when not ``isPinnedOnce``: unpins the
    /// buffer of `elements` when it is still the one the dispatch pinned,
    /// otherwise the last retired buffer, which it hands over to the caller
    /// when no dispatch in flight pins it any more (see the type's
    /// documentation).
    ///
    /// A buffer handed over is out of the array, which is consistent
    /// without it, but for the retired bit of ``state``, left set so that a
    /// change made while the buffer is dropped counts as made during this
    /// dispatch (``isDispatching``) and is announced when it ends. The caller
    /// drops the buffer once its access to this array has ended, then calls
    /// ``endRelease()``: dropping it may free targets, whose deinits may use
    /// the storage (add, remove, dispatch), which must not happen while an
    /// access to the array is open or its state half-changed.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(never)
    internal mutating func endDispatchAfterChange() -> DispatchEnd<Element> {
        if isPinned {
            state -= Self.pinnedOnce
        } else {
            precondition(!retired.isEmpty, "a dispatch ended that no buffer was pinned for")
            retired[retired.count - 1].pins -= 1
            if retired[retired.count - 1].pins == 0 { return .released(retired.removeLast().buffer) }
        }
        return .ended(wasLast: endFlagged())
    }

    /// Finishes the end of a dispatch that handed over a buffer
    /// (``DispatchEnd/released(_:)``), after the caller dropped it. Any dispatch that the drop began has ended, so `retired` is what it
    /// was before the drop.
    ///
    /// - Returns: `true` when no retired buffer is left (the elements changed
    ///   during the dispatches, which have all ended), or when this ended the
    ///   last dispatch in flight while they were flagged.
    /// - Complexity: O(1).
    @usableFromInline @inline(never)
    internal mutating func endRelease() -> Bool {
        let isLast = retired.isEmpty
        if isLast { state &= ~1 }
        return endFlagged() || isLast
    }

    /// Clears ``state`` when the last dispatch in flight ended flagged, and
    /// answers whether it did.
    @inlinable
    internal mutating func endFlagged() -> Bool {
        guard state == Self.flagged else { return false }
        state = 0
        return true
    }

    /// Calls `update` with each element of each retired buffer, in place:
    /// dispatches in flight that read them see the change from then on.
    ///
    /// Through the buffers' memory, not through `retired`: a write through the
    /// array would copy a buffer that something else also holds (a buffer
    /// retired twice with no change between, which no caller makes today, or
    /// retired and still `elements`) and leave the copy where a dispatch's pins
    /// are counted, freeing the buffer it reads too early. Written in place,
    /// the change is seen by every holder of the buffer, `elements` included
    /// if it shares one. `update` may change only what owns no reference (an
    /// element's trivial fields): no element is copied, moved or freed.
    ///
    /// - Complexity: O(*n*) for each retired buffer.
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

/// How a dispatch over a ``PinnedArray`` ended.
@frozen @usableFromInline
internal enum DispatchEnd<Element> {
    /// It ended; `wasLast` when it was the last in flight and they were
    /// flagged (``PinnedArray/flagDispatches()``).
    case ended(wasLast: Bool)
    /// It was the last to read this buffer, retired by a change and now out
    /// of the array: the caller drops it once its access to the array has
    /// ended, then calls ``PinnedArray/endRelease()``, which says whether it
    /// was the last dispatch in flight.
    case released(ContiguousArray<Element>)
}

/// A buffer of a ``PinnedArray`` that dispatches in flight still read, and how
/// many of them.
@usableFromInline
internal struct RetiredBuffer<Element> {
    @usableFromInline var buffer: ContiguousArray<Element>
    @usableFromInline var pins: Int
}
