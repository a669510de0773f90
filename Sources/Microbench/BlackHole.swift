import FanoutMicrobenchCounters
import Synchronization

/// Makes the optimizer assume `value` is used: the measured work that
/// produced it cannot be deleted.
///
/// The value's address is passed to a C function the Swift optimizer cannot
/// see into, so the call survives whole-module and cross-module optimization.
@inline(never)
public func blackHole<T>(_ value: T) {
    var copy = value
    withUnsafeMutablePointer(to: &copy) { microbench_escape($0) }
}

/// Returns `value` in a way the optimizer cannot see through, so work that
/// depends on it cannot be hoisted out of a loop or folded at compile time.
@inline(never)
public func identity<T>(_ value: T) -> T {
    var copy = value
    withUnsafeMutablePointer(to: &copy) { microbench_escape($0) }
    return copy
}

/// A compiler barrier: the optimizer must assume that any memory may be read
/// or written here, so work on objects before it cannot be merged with work
/// after it (the increments of a loop of inlined calls, for example, cannot be
/// summed into one, and what was loaded before is loaded again after). No
/// reference counting.
///
/// An acquire-release fence, which the compiler's optimizers treat as
/// touching all memory. On x86-64 it emits no instruction; on arm64 it is a
/// `dmb ish`, a barrier with a cost of its own in every timed message. (It
/// was a call to an opaque C function: two calls and a jump per message,
/// which the floor it is compared with does not pay.)
///
/// Where Synchronization's fence is not available (before macOS 15 and
/// iOS 18), an opaque C call stands in for it.
@inlinable @inline(__always)
public func clobberMemory() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        atomicMemoryFence(ordering: .acquiringAndReleasing)
    } else {
        microbench_escape(nil)
    }
}
