import MicrobenchCounters

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

/// A call the optimizer cannot see into and that may read or write any memory
/// reachable from outside the caller: work on objects before it cannot be
/// merged with work after it (the increments of a loop of inlined calls, for
/// example, cannot be summed into one). No reference counting.
@inline(__always)
public func clobberMemory() {
    microbench_escape(nil)
}
