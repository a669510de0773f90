#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Nanoseconds from `CLOCK_MONOTONIC`: never goes backwards, unaffected by
/// changes to the wall clock.
public enum MonotonicClock {
    /// The current reading, in nanoseconds from an arbitrary origin.
    @inlinable
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
