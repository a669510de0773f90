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
/// It is `Sendable`, checked by the compiler. See ``ConcurrentStorage``.
public typealias ConcurrentMultiplexer<Schema: DelegateSchema> = Multiplexer<ConcurrentStorage<Schema>>

/// The storage of ``ConcurrentMultiplexer``: ``ExistentialArrayStorage``'s
/// copy-on-write array inside a `Mutex`.
///
/// A writer changes the array under the lock, which copies the buffer if a
/// dispatch is using it. A dispatch holds the lock only to copy the array
/// reference (one retain), then calls the targets with the lock released, so
/// callbacks may add, remove and dispatch again, and each dispatch delivers to
/// exactly the targets registered when it began, per thread. Reading the
/// reference without any lock would need hazard pointers or similar to keep a
/// writer from freeing it between the load and the retain; the short critical
/// section is the documented alternative.
///
/// The storage's own state is `Sendable` (checked by the compiler). The
/// targets are called from whichever thread dispatches, so they must be safe
/// to call concurrently themselves.
///
/// Design, guarantees and cost of every strategy: `Documentation/Strategies.md`.
public final class ConcurrentStorage<Schema: DelegateSchema>: MultiplexerStorage, Sendable {
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, Schema.Target>

    @usableFromInline
    internal let state = Mutex(Table())

    /// An empty storage.
    public init() {}

    /// Runs `body` under the lock, annotated for ThreadSanitizer (see
    /// `FanoutSupport.h`; the annotations compile to nothing otherwise).
    @inlinable
    @inline(__always)
    internal func locked<Value>(_ body: (inout sending Table) -> sending Value) -> sending Value {
        state.withAnnotatedLock(at: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()), body)
    }

    /// Registers `target` strongly; registering it again does nothing.
    /// The target's `responds(to:)` is read before the lock is taken.
    ///
    /// - Complexity: Amortized O(*k*) under the lock, plus an O(*n*) copy when
    ///   a dispatch is using the current array.
    public func add(_ target: Schema.Target) {
        guard let (id, messages) = Table.newMember(target, addingTo: self, isRegistered: { _ in false }) else { return }
        let target = CallableFromAnyThread(target)
        locked { table in _ = table.append(target.value, id: id, messages: messages) }
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*) under the lock.
    public func remove(_ target: Schema.Target) {
        let id = Schema.identity(of: target)
        locked { table in _ = table.remove(id) }
    }

    /// The number of registered targets.
    ///
    /// - Complexity: O(1) under the lock.
    public var count: Int { locked { $0.count } }

    /// Whether any registered target responds to `key`.
    ///
    /// - Complexity: O(1) under the lock.
    public func responds(to key: Schema.Key) -> Bool { locked { $0.responds(to: key) } }

    /// This strategy's delivery (``MultiplexerStorage``): calls every registered target that responds to `message`, in
    /// order, outside the lock.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    @inlinable @inline(__always)
    public static func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, in storage: Unmanaged<ConcurrentStorage>,
        while shouldContinue: (Result) -> Bool
    ) {
        let snapshot = storage._withUnsafeGuaranteedRef { $0.snapshot() }
        Table.deliver(message, arguments, to: snapshot, while: shouldContinue)
    }

    /// The registrations a dispatch beginning now reaches, copied under the lock.
    @inlinable
    @inline(__always)
    internal func snapshot() -> ContiguousArray<Table.Entry> {
        locked { $0.entries }
    }
}

/// A target handed to the concurrent storage, which calls it from whichever
/// thread dispatches: the caller's promise, stated in the documentation of
/// ``ConcurrentMultiplexer``, that the target is safe to call from any thread.
/// The storage's own state needs no such promise.
@usableFromInline
internal struct CallableFromAnyThread<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
