import FanoutMicrobenchCounters

/// Calls counted while a body ran: heap allocations, bytes requested, frees,
/// and Swift reference-counting calls. `Sources/MicrobenchCounters/Counters.c`
/// lists the entry points behind each figure and how each counts.
public struct CounterReading: Equatable, Sendable {
    /// Calls to `malloc`, `calloc`, `realloc`, `posix_memalign` and `aligned_alloc`.
    public var mallocs: UInt64
    /// Bytes those calls requested (`calloc`: count × size; `realloc`: the new size).
    public var bytes: UInt64
    /// Strong retains: `swift_retain`, `swift_retain_n` (one call, whatever
    /// its count), their `nonatomic` and `bridgeObject` variants, and the
    /// strong retains taken through an unowned reference.
    public var retains: UInt64
    /// The matching strong releases.
    public var releases: UInt64
    /// Calls to `free` with a non-`NULL` pointer.
    public var frees: UInt64

    public init(mallocs: UInt64, bytes: UInt64, retains: UInt64, releases: UInt64, frees: UInt64 = 0) {
        self.mallocs = mallocs
        self.bytes = bytes
        self.retains = retains
        self.releases = releases
        self.frees = frees
    }
}

/// In-process counters of allocation and reference-counting calls, made by
/// interposing those functions (see `Sources/MicrobenchCounters/Counters.c`).
///
/// What is counted: every call made from code compiled into this executable
/// (including the `Fanout` library, linked statically) and every call another
/// shared library makes to the allocator. What is not: reference counting the
/// Swift runtime does inside itself (such as the retain within a weak load)
/// and in other shared libraries' internal calls.
///
/// Counting is per thread: only the calling thread's calls are counted.
public enum Counters {
    /// Whether this binary has the interposing hooks; `false` in a sanitizer
    /// build or one with `-Xcc -DMICROBENCH_NO_HOOKS`, where every reading is zero.
    public static var areAvailable: Bool { microbench_hooks_available() != 0 }

    /// Whether this binary was built under AddressSanitizer or
    /// ThreadSanitizer, which interpose the allocator themselves, so the hooks
    /// are compiled out on purpose. A flag of the build, not a probe: every
    /// other build must have the hooks.
    public static var areCompiledOutForSanitizer: Bool { microbench_built_with_sanitizer() != 0 }

    /// Whether this binary was built against a C library other than glibc
    /// (macOS, musl): the hooks forward to glibc's allocator entry points, so
    /// they are compiled out there, and every reading is zero.
    public static var areCompiledOutOffGlibc: Bool { microbench_built_without_glibc() != 0 }

    /// Whether the build leaves the hooks out on purpose: a sanitizer build,
    /// or one off glibc. A flag of the build, not a probe.
    public static var areCompiledOut: Bool { areCompiledOutForSanitizer || areCompiledOutOffGlibc }

    /// Bytes the allocator has handed out and not yet freed, process-wide
    /// (glibc's `mallinfo2`: `uordblks + hblkhd`); 0 off glibc.
    public static var heapInUse: UInt64 { microbench_heap_in_use() }

    /// Runs `body` with counting on for the calling thread and returns what
    /// it counted.
    ///
    /// - Complexity: O(1) in addition to `body`.
    public static func count(_ body: () throws -> Void) rethrows -> CounterReading {
        microbench_counting_start()
        defer { _ = microbench_counting_stop() }
        try body()
        let counts = microbench_counting_stop()
        return CounterReading(
            mallocs: counts.mallocs, bytes: counts.bytes, retains: counts.retains, releases: counts.releases,
            frees: counts.frees)
    }
}
