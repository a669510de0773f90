/// A multiplexer that holds its targets weakly: the multicast delegate most
/// libraries ship. A deallocated target receives nothing and is pruned.
///
/// ```swift
/// let multiplexer = WeakArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)     // not retained: keep `behavior` alive yourself
/// ```
///
/// Every delivery loads a weak reference (the runtime's `swift_weakLoadStrong`,
/// which takes a lock-free but atomic path and returns a +1 reference), so a
/// dispatch costs a weak load and a release per target on top of the call.
/// `count` first drops deallocated targets and `responds(to:)` looks for a
/// live responder, so both are exact for live targets.
public final class WeakArrayMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema>, Multiplexing {
    @usableFromInline
    internal struct Registration {
        /// Returns the target while it is alive.
        @usableFromInline let load: () -> Schema.Target?
        @usableFromInline let messages: MessageSet<Schema.Key>

        @inlinable
        init(load: @escaping () -> Schema.Target?, messages: MessageSet<Schema.Key>) {
            self.load = load
            self.messages = messages
        }
    }

    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var registrations = IdentifiedList<Registration>()

    /// Creates a multiplexer with no targets.
    override public init() {}

    /// Registers `target` weakly; registering a live registered target again
    /// does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is
    ///   already registered, to tell a live duplicate from a dead target whose
    ///   memory a new object reuses.
    public func add(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        let id = Schema.identity(of: target)
        if registry.contains(id), registrations.entries.contains(where: { $0.id == id && $0.value.load() == nil }) {
            _ = registry.remove(id: id)
            registrations.remove(id)
        }
        guard let messages = responsesForAdding(target, id: id), registry.insert(id: id, messages: messages) else {
            return
        }
        registrations.append(Registration(load: Schema.weakReference(to: target), messages: messages), for: id)
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        guard let (id, _) = registry.remove(target) else { return }
        registrations.remove(id)
    }

    override func hasLiveResponder(to key: Schema.Key) -> Bool {
        registrations.entries.contains { $0.value.messages.contains(key) && $0.value.load() != nil }
    }

    override func pruneDeadTargets() {
        for id in registrations.removeAll(where: { $0.load() == nil }) {
            _ = registry.remove(id: id)
        }
    }

    /// Calls every live registered target that responds to `message`, in
    /// order; deallocated targets are skipped.
    ///
    /// - Complexity: O(*n*) weak loads, where *n* is the number of targets.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        beginCall()
        defer { endCall() }
        let snapshot = registrations.entries
        for entry in snapshot where entry.value.messages.contains(message.key) {
            guard let target = entry.value.load() else { continue }
            guard shouldContinue(message.invoke(target, arguments)) else { return }
        }
    }
}
