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
    /// buffer: one word,
    /// so that the outermost dispatch, the common case, begins finding it `0`
    /// and sets it to ``pinnedOnce``, and, when nothing changed meanwhile,
    /// ends finding it ``pinnedOnce`` and clears it. One load and one store
    /// at each end, and nothing of the dispatch kept across its calls
    /// (Findings 47). The retired bit is kept beside `retired` so that reading
    /// it through a storage's table copies no array (a retain and a release).
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

    /// Whether `retired` holds a buffer.
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
    /// The buffer stays valid until the matching `endDispatch`, for the
    /// reasons in the type's documentation, provided the value that holds
    /// this array lives until then (the caller holds it). A storage that
    /// reaches its table through a protocol takes the steps one by one
    /// (``isIdle``, ``pinFirst()`` or ``pinAgain()``, ``pinnedElements``): a
    /// mutating call that returns a value through a storage's table is not
    /// inlined (Findings 46).
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
    /// - Returns: `true` when it freed the last retired buffer (the elements
    ///   changed during the dispatches), or ended the last dispatch in flight
    ///   while they were flagged: none is in flight any more.
    /// - Complexity: O(1), plus freeing what was retired during the dispatch.
    @inlinable @inline(__always)
    internal mutating func endDispatch() -> Bool {
        guard _fastPath(isPinnedOnce) else { return endDispatchAfterChange() }
        unpin()
        return false
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
    /// otherwise the last retired buffer, freeing it when no dispatch in
    /// flight pins it any more (see the type's documentation).
    ///
    /// - Returns: `true` when it freed the last retired buffer (the elements
    ///   changed during the dispatches), or ended the last dispatch in flight
    ///   while they were flagged: none is in flight any more.
    /// - Complexity: O(1), plus freeing what was retired during the dispatch.
    @inlinable @inline(never)
    internal mutating func endDispatchAfterChange() -> Bool {
        var freedLast = false
        if isPinned {
            state -= Self.pinnedOnce
        } else {
            precondition(!retired.isEmpty, "a dispatch ended that no buffer was pinned for")
            retired[retired.count - 1].pins -= 1
            if retired[retired.count - 1].pins == 0 { freedLast = releaseRetired() }
        }
        // The last dispatch in flight ended flagged.
        if state == Self.flagged {
            state = 0
            return true
        }
        return freedLast
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

    /// Frees the buffer retired last, which no dispatch in flight pins any
    /// more, and answers whether none is left.
    ///
    /// Freeing a buffer may free a target, and its deinit may use the
    /// multiplexer again: dispatch, and change it from a callback. So the
    /// buffer is first taken out and this array made consistent again; it is
    /// dropped after that, and a dispatch begun by a deinit meanwhile ends
    /// before the drop returns, having freed what it retired itself.
    @usableFromInline @inline(never)
    internal mutating func releaseRetired() -> Bool {
        let freed = retired.removeLast().buffer
        let isLast = retired.isEmpty
        // Dropped here, while the retired bit is still set: a change that a
        // deinit makes meanwhile is made while this dispatch is in flight
        // (`isDispatching`), and announced when it ends, as in the closure
        // strategies. A dispatch begun by a deinit meanwhile pins `elements`
        // and ends before the drop returns; if a change during it retired a
        // buffer, its end frees that one, finds none left, and announces then,
        // from inside the deinit (as before the count; Findings 47).
        _ = consume freed
        if retired.isEmpty { state &= ~1 }
        return isLast
    }
}

/// A buffer of a ``PinnedArray`` that dispatches in flight still read, and how
/// many of them.
@usableFromInline
internal struct RetiredBuffer<Element> {
    @usableFromInline var buffer: ContiguousArray<Element>
    @usableFromInline var pins: Int
}
