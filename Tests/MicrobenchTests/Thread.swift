#if canImport(Glibc)
import Glibc
#endif

/// A bare POSIX thread for the per-thread counting test.
final class Thread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&handle, nil, { context in
            let thread = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
            thread.body()
            return nil
        }, context)
    }

    func join() { pthread_join(handle, nil) }
}
