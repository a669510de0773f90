import FanoutSupport
import Synchronization

/// A multiplexer that may be used from many threads at once: dispatch from
/// several threads while others add and remove targets.
///
/// ```swift
/// let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()
/// DispatchQueue.concurrentPerform(iterations: 4) { _ in multiplexer.scrollViewDidScroll(view) }
/// ```
///
/// Design: the targets are an immutable copy-on-write array (as in
/// ``ExistentialArrayMultiplexer``, held strongly) inside a `Mutex`. A writer
/// changes it under the lock, which copies the buffer if a dispatch is using
/// it. A dispatch holds the lock only to copy the array reference (one retain),
/// then calls the targets with the lock released, so callbacks may add, remove
/// and dispatch again, and each dispatch delivers to exactly the targets
/// registered when it began, per thread. Reading the reference without any
/// lock would need hazard pointers or similar to keep a writer from freeing it
/// between the load and the retain; the short critical section is the
/// documented alternative.
///
/// The multiplexer's own state is `Sendable` (checked by the compiler). The
/// targets are called from whichever thread dispatches, so they must be safe
/// to call concurrently themselves.
public final class ConcurrentMultiplexer<Schema: DelegateSchema>: Multiplexing, Sendable {
    @usableFromInline
    internal struct State {
        @usableFromInline var registry = Registry<Schema>()
        @usableFromInline var registrations = IdentifiedList<StrongRegistration<Schema>>()

        @usableFromInline init() {}
    }

    @usableFromInline
    internal let state = Mutex(State())

    /// Creates a multiplexer with no targets.
    public init() {}

    /// Runs `body` under the lock, annotated for ThreadSanitizer (see
    /// `FanoutSupport.h`; the annotations compile to nothing otherwise).
    @inlinable
    @inline(__always)
    internal func locked<Value>(_ body: (inout sending State) -> sending Value) -> sending Value {
        let address = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        return state.withLock { state in
            fanout_sanitizer_acquire(address)
            defer { fanout_sanitizer_release(address) }
            return body(&state)
        }
    }

    /// Registers `target` strongly; registering it again does nothing.
    /// The target's `responds(to:)` is read before the lock is taken.
    ///
    /// - Complexity: Amortized O(*k*) under the lock, plus an O(*n*) copy when
    ///   a dispatch is using the current array.
    public func add(_ target: Schema.Target) {
        // Read before the lock is taken, so that `responds(to:)` may call the multiplexer.
        let id = Schema.identity(of: target)
        guard let messages = Registry<Schema>.responses(of: target, id: id, addingTo: self) else { return }
        let target = CallableFromAnyThread(target)
        locked { state in
            guard state.registry.insert(id: id, messages: messages) else { return }
            state.registrations.append(StrongRegistration(target: target.value, messages: messages), for: id)
        }
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*) under the lock.
    public func remove(_ target: Schema.Target) {
        let target = CallableFromAnyThread(target)
        locked { state in
            guard let (id, _) = state.registry.remove(target.value) else { return }
            state.registrations.remove(id)
        }
    }

    /// The number of registered targets.
    ///
    /// - Complexity: O(1) under the lock.
    public var count: Int { locked { $0.registry.count } }

    /// Whether any registered target responds to `key`.
    ///
    /// - Complexity: O(1) under the lock.
    public func responds(to key: Schema.Key) -> Bool { locked { $0.registry.responds(to: key) } }

    /// Calls every registered target that responds to `message`, in order,
    /// outside the lock.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        let snapshot = locked { $0.registrations.entries }
        StrongRegistration.deliver(message, arguments, to: snapshot, while: shouldContinue)
    }
}

/// A target handed to the concurrent multiplexer, which calls it from
/// whichever thread dispatches: the caller's promise, stated in the
/// documentation of ``ConcurrentMultiplexer``, that the target is safe to call
/// from any thread. The multiplexer's own state needs no such promise.
@usableFromInline
internal struct CallableFromAnyThread<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
