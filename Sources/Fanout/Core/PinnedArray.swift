/// An array that dispatches iterate in place, with no reference counted: the
/// registrations of ``RegistrationTable`` and the responders of a
/// ``ClosureList``.
///
/// A dispatch pins the buffer (``beginDispatch()``) and reads it through a
/// pointer until it ends (``endDispatch(_:)``). A change meanwhile
/// (``modify(_:)``) first retires the pinned buffer (keeps it in `retired`),
/// so that the change copies the buffer instead of writing where the dispatch
/// reads, and a retired buffer is freed only when the dispatch that pinned it
/// ends. So every element of a pinned buffer, and what it holds, stays alive
/// until the dispatch ends, whatever the dispatch's callbacks change; and each
/// dispatch sees the elements as they were when it began.
///
/// Retired buffers stay bounded: only the first change after a dispatch pins
/// the buffer retires it, later ones write to the copy, which no dispatch
/// reads, so there is at most one retired buffer per dispatch in flight,
/// however often its callbacks change the array.
///
/// Single-threaded: the storages that use it are used by one thread at a
/// time, so the pin is a plain flag, not an atomic count.
@usableFromInline
internal struct PinnedArray<Element> {
    /// The elements in order.
    @usableFromInline
    internal private(set) var elements: ContiguousArray<Element> = []

    /// Buffers of `elements` that dispatches in flight still iterate, replaced
    /// since by a change: kept alive, in the order they were retired, until
    /// the dispatch that pinned each one ends.
    @usableFromInline
    internal private(set) var retired: [ContiguousArray<Element>] = []

    /// Whether a dispatch in flight iterates the buffer of `elements`.
    ///
    /// A dispatch sets and clears it, and keeps whether it is nested in its
    /// ``DispatchToken``: fewer instructions per message than a word holding
    /// the pin and a count of retired buffers (Findings 46).
    @usableFromInline
    internal private(set) var isPinned = false

    @inlinable
    internal init() {}

    /// Whether a dispatch is in flight: one pinned the buffer, or a change
    /// since retired it (only the outermost dispatch's end frees the last
    /// retired buffer).
    internal var isDispatching: Bool { isPinned || hasRetired }

    /// Whether `retired` holds a buffer: kept beside it so that reading it
    /// through a storage's table copies no array (a retain and a release).
    internal private(set) var hasRetired = false

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
            retired.append(elements)
            hasRetired = true
            isPinned = false
        }
        return change(&elements)
    }

    /// Starts a dispatch: pins the buffer of `elements` and returns it, with
    /// what ``endDispatch(_:)`` needs.
    ///
    /// The buffer stays valid until the matching `endDispatch`, for the
    /// reasons in the type's documentation, provided the value that holds
    /// this array lives until then (the caller holds it).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    internal mutating func beginDispatch() -> (elements: UnsafeBufferPointer<Element>, token: DispatchToken) {
        #if DEBUG
        let token = DispatchToken(isNested: isPinned, retiredAtBegin: retired.count)
        #else
        let token = DispatchToken(isNested: isPinned)
        #endif
        isPinned = true
        // The pointer outlives the closure: valid for the reasons above.
        return (elements.withUnsafeBufferPointer { $0 }, token)
    }

    /// Ends the dispatch that `token` began. A dispatch that pinned the
    /// buffer itself unpins it, or frees what a change retired since it
    /// began: the buffer it pinned, which no dispatch in flight reads any
    /// more (those begun inside it have ended, and those outside it read an
    /// older buffer). A dispatch begun while the buffer was pinned leaves both
    /// to the one that pinned it.
    ///
    /// - Returns: `true` when it freed the last retired buffer: the elements
    ///   changed during the dispatches, and none is in flight any more.
    /// - Complexity: O(1), plus freeing what was retired during the dispatch.
    @inlinable @inline(__always)
    internal mutating func endDispatch(_ token: DispatchToken) -> Bool {
        // An outer dispatch pinned the buffer: it unpins it.
        if _slowPath(token.isNested) { return false }
        // Still pinned: nothing was retired since this dispatch began.
        if _fastPath(isPinned) {
            isPinned = false
            return false
        }
        #if DEBUG
        return releaseRetired(pinnedBy: token)
        #else
        return releaseRetired()
        #endif
    }

    /// Frees the buffer retired last, which the dispatch that ends pinned,
    /// and answers whether none is left.
    ///
    /// Only one was retired since that dispatch began: a change retires the
    /// pinned buffer and unpins it, later changes write to the copy, and a
    /// dispatch begun inside it since pinned its own buffer and, at its end,
    /// unpinned or freed it. Debug builds check it
    /// (``releaseRetired(pinnedBy:)``): freeing another buffer would free one
    /// that a dispatch still reads.
    ///
    /// Freeing a buffer may free a target, and its deinit may use the
    /// multiplexer again: dispatch, and change it from a callback. So the
    /// buffer is first taken out and this array made consistent again; it is
    /// dropped after that, and a dispatch begun by a deinit meanwhile ends
    /// before the drop returns, having freed what it retired itself.
    @usableFromInline @inline(never)
    internal mutating func releaseRetired() -> Bool {
        let freed = retired.removeLast()
        let isLast = retired.isEmpty
        // Dropped here, while `hasRetired` is still set: a change that a
        // deinit makes meanwhile is made while this dispatch is in flight
        // (`isDispatching`), and announced when it ends, as in the closure
        // strategies. A dispatch begun by a deinit restores what it changed.
        _ = consume freed
        hasRetired = !retired.isEmpty
        return isLast
    }
}

#if DEBUG
extension PinnedArray {
    /// ``releaseRetired()``, after checking that exactly one buffer was
    /// retired since the dispatch that `token` began: the one it pinned.
    @usableFromInline @inline(never)
    internal mutating func releaseRetired(pinnedBy token: DispatchToken) -> Bool {
        precondition(
            retired.count == token.retiredAtBegin + 1,
            "\(retired.count) buffers retired at the end of a dispatch begun with \(token.retiredAtBegin): not the one it pinned")
        return releaseRetired()
    }
}
#endif

/// What ``PinnedArray/endDispatch(_:)`` needs of the dispatch it ends:
/// whether an outer dispatch had pinned the buffer when it began.
@frozen
@usableFromInline
internal struct DispatchToken {
    @usableFromInline let isNested: Bool

    #if DEBUG
    /// How many buffers were retired when the dispatch began, for the check
    /// in ``PinnedArray/releaseRetired(pinnedBy:)``.
    @usableFromInline let retiredAtBegin: Int

    @inlinable
    init(isNested: Bool, retiredAtBegin: Int) {
        self.isNested = isNested
        self.retiredAtBegin = retiredAtBegin
    }
    #else
    @inlinable
    init(isNested: Bool) { self.isNested = isNested }
    #endif
}
