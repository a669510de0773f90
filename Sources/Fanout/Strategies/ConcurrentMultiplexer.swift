import FanoutSupport

/// A multiplexer that may be used from many threads at once: dispatch from several threads while others add
/// and remove targets.
///
/// ```swift
/// let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()
/// DispatchQueue.concurrentPerform(iterations: 4) { _ in multiplexer.scrollViewDidScroll(view) }
/// ```
///
/// Writers change a copy-on-write array under a lock, then publish a snapshot of it (an object holding the array)
/// with an atomic exchange. A dispatch takes no lock and counts no reference: it counts itself in among the
/// readers, reads the published snapshot, calls the targets, each borrowed from an immutable object of its own,
/// and counts itself out. A replaced snapshot is retired, and freed only when no reader is counted, by a writer or
/// by the last reader out.
///
/// Why that is safe: a reader that holds a snapshot counted itself in before it read it, so before the exchange
/// that retired it; whoever frees retired snapshots first sees the count at zero, after the exchange, so that
/// reader has counted itself out (every step is sequentially consistent). A reader that counts itself in later
/// reads the newer snapshot. The targets stay alive while a snapshot that holds them does, so callbacks may add,
/// remove and dispatch again, and each dispatch delivers to exactly the targets registered when it began. Retired
/// snapshots wait while dispatches overlap without pause; once none is in flight, the last reader out frees them
/// or, if a writer holds the lock then, that writer does once it has released it (a reader never waits for it).
///
/// Its own state is shared under the lock or through its atomic words (`fanout_published`). The targets are called
/// from whichever thread dispatches, so they must be safe to call concurrently: the multiplexer is `Sendable` only
/// when its target type is (`any P` where `P: Sendable`).
public final class ConcurrentMultiplexer<Schema: DelegateSchema>: _TargetCalling {
    /// Each target in an object of its own (``ImmutableBox``), so that a dispatch calls it in place from many threads.
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, ImmutableBox<Schema.Target>>

    /// What a dispatch reads: the registrations when it was published.
    @usableFromInline
    internal typealias Snapshot = ImmutableBox<ContiguousArray<Table.Entry>>

    // The writers' state, read and written only under `lock`: the registrations, the replaced snapshots not yet
    // freed (each retained once), and the handler of ``respondersDidChange``.
    private var table = Table()
    private var retired: [Unmanaged<AnyObject>] = []
    private var changeHandler: (() -> Void)?

    /// The writers' lock: a pthread mutex (`FanoutSupport`), which needs no availability check.
    private let lock = fanout_lock_create()

    /// The words readers and writers share, changed only atomically, by `FanoutSupport`: the readers' count, the
    /// published snapshot (which that word retains once), and whether a replaced snapshot waits.
    @usableFromInline
    internal let published: UnsafeMutablePointer<fanout_published>

    public init() {
        published = fanout_published_create(Unmanaged.passRetained(Snapshot([])).toOpaque())
    }

    deinit {
        // No dispatch is in flight: each holds the storage for its duration.
        Unmanaged<Snapshot>.fromOpaque(published.pointee.snapshot.unsafelyUnwrapped).release()
        for snapshot in retired { snapshot.release() }
        fanout_published_destroy(published)
        fanout_lock_destroy(lock)
    }

    /// Runs `body`, which reads or writes the writers' state, under the lock.
    private func locked<Value>(_ body: () -> Value) -> Value {
        fanout_lock_lock(lock)
        defer { fanout_lock_unlock(lock) }
        return body()
    }

    /// Changes the registrations with `change` and, when it says they changed, publishes them; then, once the lock
    /// is released, frees the retired snapshots if no dispatch is in flight.
    private func write(_ change: (inout Table) -> Bool) {
        let (announce, freed) = locked { () -> ((() -> Void)?, [Unmanaged<AnyObject>]?) in
            let before = table.respondingBits
            guard change(&table) else { return (nil, nil) }
            publish()
            return (table.respondingBits == before ? nil : changeHandler, takeRetired())
        }
        if let freed { Self.release(freed) }
        // A reader that left while this held the lock did not wait for it (`readersLeft`): free what it would have.
        if fanout_reclaim_pending(published) != 0 { readersLeft() }
        announce?()
    }

    /// Publishes the registrations as a new snapshot and retires the one it replaces; the caller holds the lock.
    private func publish() {
        let snapshot = Unmanaged.passRetained(Snapshot(table.entries)).toOpaque()
        let replaced = fanout_publish(published, snapshot)
        retired.append(Unmanaged<AnyObject>.fromOpaque(replaced.unsafelyUnwrapped))
    }

    /// Called when the set of messages some target responds to changes (``Multiplexing/respondersDidChange``): at
    /// once, on the thread whose `add` or `remove` changed it, after the lock is released. Changes on several threads
    /// announce concurrently and in no set order: the handler must be safe to call from any thread, and should read
    /// ``responds(to:)`` afresh.
    public var respondersDidChange: (() -> Void)? {
        get { locked { changeHandler } }
        set {
            let replaced = locked {
                defer { changeHandler = newValue }
                return changeHandler
            }
            // Released here, after the lock: what the old handler captured may have a deinit that calls this storage.
            _ = consume replaced
        }
    }

    /// Takes the retired snapshots out when no reader is counted, for the caller to release once the lock is
    /// released (``release(_:)``); the caller holds the lock, so no snapshot is retired meanwhile.
    private func takeRetired() -> [Unmanaged<AnyObject>]? {
        guard !retired.isEmpty, fanout_begin_reclaim(published) != 0 else { return nil }
        var taken: [Unmanaged<AnyObject>] = []
        swap(&taken, &retired)
        return taken
    }

    /// Releases snapshots taken out by ``takeRetired()``, with the lock released: a target's deinit may call this
    /// storage, which takes the lock. No reader can reach them: each was replaced, and no reader of it is left.
    private static func release(_ snapshots: [Unmanaged<AnyObject>]) {
        for snapshot in snapshots { snapshot.release() }
    }

    /// Called by the last reader out while snapshots are retired.
    @usableFromInline @inline(never)
    internal func readersLeft() {
        // Without waiting for the lock: whoever holds it checks again once it has released it (`write`, or the reader
        // freeing now). A reader never sleeps on a writer's lock.
        guard fanout_lock_try(lock) != 0 else { return }
        let freed = takeRetired()
        fanout_lock_unlock(lock)
        if let freed { Self.release(freed) }
    }

    /// Registers `target` strongly; registering it again does nothing. The target's `responds(to:)` is read
    /// before the lock is taken.
    ///
    /// - Complexity: Amortized O(*k*) under the lock, plus an O(*n*) copy when a snapshot shares the array.
    public func add(_ target: Schema.Target) {
        let id = Schema.identity(of: target)
        guard let messages = Table.responses(of: target, id: id, addingTo: self) else { return }
        let target = ImmutableBox(target)
        write { table in table.append(target, id: id, messages: messages) }
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*) under the lock.
    public func remove(_ target: Schema.Target) {
        let id = Schema.identity(of: target)
        var removed: Table.Entry?
        write { table in
            removed = table.remove(id)
            return removed != nil
        }
        // Released here, after the lock (usually not the last reference: the snapshot replaced holds the target too).
        _ = consume removed
    }

    /// The number of registered targets.
    public var count: Int { locked { table.count } }

    /// Whether any registered target responds to `key`.
    public func responds(to key: Schema.Key) -> Bool { locked { table.responds(to: key) } }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every registered target that responds
    /// to the message named `key`, in order, with no lock and no reference counting: the reader count keeps the
    /// snapshot, and so the targets, alive.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<ConcurrentMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        // The snapshot stays valid until this reader counts itself out. `published` is read once: it never changes.
        let published = storage._withUnsafeGuaranteedRef { $0.published }
        let snapshot = Unmanaged<Snapshot>.fromOpaque(fanout_reader_enter(published).unsafelyUnwrapped)
        defer { if fanout_reader_exit(published) != 0 { storage._withUnsafeGuaranteedRef { $0.readersLeft() } } }
        snapshot._withUnsafeGuaranteedRef { snapshot in
            snapshot.value.withUnsafeBufferPointer { entries in
                let sent = KeySet(key)
                let count = entries.count
                var index = 0
                while true {
                    while index < count && _slowPath(!entries[index].messages.intersects(sent)) { index &+= 1 }
                    guard index < count else { return }
                    let target = Unmanaged.passUnretained(entries[index].value)
                    guard shouldContinue(target._withUnsafeGuaranteedRef({ invoke($0.value) })) else { return }
                    index &+= 1
                }
            }
        }
    }
}

/// Shared between threads when its targets may be: its own state is under its lock and atomics (above).
extension ConcurrentMultiplexer: @unchecked Sendable where Schema.Target: Sendable {}
