/// A multiplexer that holds its targets weakly: the multicast delegate most
/// libraries ship. A deallocated target receives nothing and is pruned.
///
/// ```swift
/// let multiplexer = WeakArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)     // not retained: keep `behavior` alive yourself
/// ```
///
/// See ``WeakArrayStorage``.
public typealias WeakArrayMultiplexer<Schema: DelegateSchema> = Multiplexer<WeakArrayStorage<Schema>>

/// The storage of ``WeakArrayMultiplexer``: one array of weak references,
/// each with the set of messages its target responds to.
///
/// Every delivery loads a weak reference (the runtime's `swift_weakLoadStrong`,
/// which takes a lock-free but atomic path and returns a +1 reference that
/// keeps the target alive through its call), so a dispatch costs a weak load
/// and a release per target on top of the call. `count` first drops
/// deallocated targets and `responds(to:)` looks for a live responder, so both
/// are exact for live targets. Single-threaded.
public final class WeakArrayStorage<Schema: DelegateSchema>: MultiplexerStorage, ConfinedStorage, CountedDispatchStorage {
    /// A function that returns the target while it is alive.
    @usableFromInline
    internal typealias WeakReference = () -> Schema.Target?

    /// Dispatch copies its entries out in one instantaneous read, so it needs
    /// no dynamic exclusivity check (Documentation/WritingAStrategy.md).
    @exclusivity(unchecked) @usableFromInline
    internal var table = RegistrationTable<Schema, WeakReference>()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    /// The dispatches in flight.
    @exclusivity(unchecked) @usableFromInline
    internal var dispatches = DispatchCounter()

    internal var announcement = RespondersAnnouncement()

    /// Called when the set of messages some target responds to changes
    /// (``MultiplexerStorage/respondersDidChange``).
    public var respondersDidChange: (() -> Void)? {
        get { announcement.handler }
        set { announcement.handler = newValue }
    }

    /// Announces the change made during the dispatches that just ended.
    @usableFromInline
    internal func dispatchesEnded() { announceDeferred() }

    var respondingBits: UInt64 { table.respondingBits }

    /// An empty storage.
    public init() {}

    /// Registers `target` weakly; registering a live registered target again
    /// does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is
    ///   already registered, to tell a live duplicate from a dead target whose
    ///   memory a new object reuses.
    public func add(_ target: Schema.Target) {
        announcingChanges { addNow(target) }
    }

    private func addNow(_ target: Schema.Target) {
        confinement.run(self) {
            let id = Schema.identity(of: target)
            if table.contains(id), table.entries.contains(where: { $0.id == id && $0.value() == nil }) {
                table.remove(id)
            }
            guard let (id, messages) = RegistrationTable<Schema, WeakReference>.newMember(
                target, addingTo: self, isRegistered: { self.table.contains($0) }) else { return }
            table.append(Schema.weakReference(to: target), id: id, messages: messages)
        }
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        announcingChanges { confinement.run(self) { table.remove(Schema.identity(of: target)) } }
    }

    /// The number of live registered targets; drops the dead ones first.
    ///
    /// - Complexity: O(*n*) weak loads.
    public var count: Int {
        announcingChanges {
            confinement.run(self) {
                table.removeAll { $0() == nil }
                return table.count
            }
        }
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) when none responds; otherwise one weak load per dead
    ///   responder before the first live one.
    public func responds(to key: Schema.Key) -> Bool {
        confinement.run(self) { table.responds(to: key) && table.entries.contains { $0.messages.contains(key) && $0.value() != nil } }
    }

    /// This strategy's delivery (``MultiplexerStorage``): calls every live registered target that responds to
    /// `message`, in order; deallocated targets are skipped. Each weak load returns a strong reference that keeps its
    /// target alive through its call.
    ///
    /// - Complexity: O(*n*) weak loads, where *n* is the number of targets.
    @inlinable @inline(__always)
    public static func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, in storage: Unmanaged<WeakArrayStorage>,
        while shouldContinue: (Result) -> Bool
    ) {
        let sent = MessageSet(message.key)
        let call = storage.beginCall(); defer { call.end() }  // a call of the storage, to its end
        storage._withUnsafeGuaranteedRef { $0.dispatches.enter() }  // counted in, to the end
        // A copy of the array, one retain per message: the other strategies' pinned buffer would make the
        // optimizer retain each weak reference's closure around its call, one retain per delivery.
        for entry in storage._withUnsafeGuaranteedRef({ $0.table.entries }) where entry.messages.intersects(sent) {
            guard let target = entry.value() else { continue }
            guard shouldContinue(message.invoke(target, arguments)) else { break }
        }
        if storage._withUnsafeGuaranteedRef({ $0.dispatches.exit() }) { storage._withUnsafeGuaranteedRef { $0.dispatchesEnded() } }
    }
}
