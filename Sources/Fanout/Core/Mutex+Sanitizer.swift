import FanoutSupport
import Synchronization

extension Mutex {
    /// `withLock`, with the critical section annotated for ThreadSanitizer,
    /// which cannot see `Mutex`'s futex (see `FanoutSupport.h`; the
    /// annotations compile to nothing in other builds). `address` stands for
    /// the lock in the annotations: any address that is this lock's alone.
    @inlinable
    @inline(__always)
    internal func withAnnotatedLock<Result>(
        at address: UnsafeRawPointer, _ body: (inout sending Value) -> sending Result
    ) -> sending Result {
        withLock { value in
            fanout_sanitizer_acquire(address)
            defer { fanout_sanitizer_release(address) }
            return body(&value)
        }
    }
}
