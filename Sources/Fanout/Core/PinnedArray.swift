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

    /// The pin and the number of retired buffers in one word, so that a
    /// dispatch reads and restores both with one load and one store: bit 0
    /// is set while a dispatch in flight iterates the buffer of `elements`,
    /// the bits above it count `retired`.
    @usableFromInline
    internal var state = 0

    @inlinable
    internal init() {}

    /// Whether a dispatch in flight iterates the buffer of `elements`.
    @inlinable
    internal var isPinned: Bool { state & 1 != 0 }

    /// Whether a dispatch is in flight: one pinned the buffer, or a change
    /// since retired it (only the outermost dispatch's end frees the last
    /// retired buffer).
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
            retired.append(elements)
            state = retired.count << 1
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
        let token = DispatchToken(state: state)
        state |= 1
        // The pointer outlives the closure: valid for the reasons above.
        return (elements.withUnsafeBufferPointer { $0 }, token)
    }

    /// Ends the dispatch that `token` began. A dispatch that pinned the
    /// buffer itself unpins it, or frees what was retired since it began: no
    /// dispatch in flight reads it (those begun inside it have ended, and
    /// those outside it read an older buffer).
    ///
    /// - Returns: `true` when it freed the last retired buffer: the elements
    ///   changed during the dispatches, and none is in flight any more.
    /// - Complexity: O(1), plus freeing what was retired during the dispatch.
    @inlinable @inline(__always)
    internal mutating func endDispatch(_ token: DispatchToken) -> Bool {
        // An outer dispatch had pinned the buffer: it unpins it.
        guard token.state & 1 == 0 else { return false }
        // Nothing retired since it began: unpin.
        if _fastPath(state == token.state | 1) {
            state = token.state
            return false
        }
        return releaseRetired(downTo: token.state >> 1)
    }

    /// Frees the buffers retired since the dispatch that `count` was taken
    /// at began, and answers whether none is left.
    ///
    /// Freeing a buffer may free a target, and its deinit may use the
    /// multiplexer again: dispatch, and change it from a callback. So the
    /// buffers are first taken out and this array made consistent again;
    /// they are dropped after that.
    @usableFromInline @inline(never)
    internal mutating func releaseRetired(downTo count: Int) -> Bool {
        while retired.count > count {
            // The last one, moved out and the state written; then dropped. A
            // dispatch begun by a deinit meanwhile ends before the drop
            // returns, and frees what it retired itself.
            let freed = retired.removeLast()
            state = retired.count << 1
            withExtendedLifetime(freed) {}
        }
        return count == 0
    }
}

/// What ``PinnedArray/endDispatch(_:)`` needs of the dispatch it ends: the
/// array's pin and retired count when it began.
@frozen
@usableFromInline
internal struct DispatchToken {
    @usableFromInline let state: Int

    @inlinable
    init(state: Int) { self.state = state }
}
