/// A multiplexer with weak semantics and no weak load per delivery: a target
/// that is a ``RegistrationHolder`` is stored as an unretained reference and
/// a token in its ``RegistrationBag`` removes the registration when the
/// target is deallocated; any other target is held weakly, as by
/// ``WeakArrayMultiplexer``.
///
/// ```swift
/// let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
/// multiplexer.add(parallaxHeader)   // a RegistrationHolder: bound to its lifetime
/// ```
///
/// What a user must do: make long-lived targets ``RegistrationHolder``s (one
/// stored property) and keep them alive while they can receive messages, as
/// any delegate's owner does. What happens if they don't: a target that is not
/// a holder still works, through a weak reference (a weak load per delivery);
/// a holder that drops the last strong reference to itself inside one of its
/// own callbacks is a programming error, reported by a trap in debug builds.
/// Like the other single-threaded strategies, it must be used from one thread.
public final class LifetimeBoundMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema>, Multiplexing {
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var registrations = IdentifiedList<LifetimeRegistration<Schema>>()

    /// The bound registration being called, to catch a holder that releases
    /// itself from inside its own callback (debug builds).
    @usableFromInline
    internal var invoking: LifetimeRegistration<Schema>?

    /// How many registrations are weak references (targets that are not holders).
    private var weaklyHeld = 0

    /// Creates a multiplexer with no targets.
    override public init() {}

    /// Registers `target`: bound to its lifetime if it is a
    /// ``RegistrationHolder``, weakly otherwise. Registering a live registered
    /// target again does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is
    ///   already registered, to tell a live duplicate from a dead weakly held
    ///   target whose memory a new object reuses.
    public func add(_ target: Schema.Target) {
        let id = Schema.identity(of: target)
        if registry.contains(id),
           registrations.entries.contains(where: { $0.id == id && $0.value.isDeadWeakReference }) {
            _ = registry.remove(id: id)
            registrations.remove(id)
            weaklyHeld -= 1
        }
        guard let (id, messages) = registry.insert(target) else { return }
        let registration: LifetimeRegistration<Schema>
        if let holder = target as? any RegistrationHolder {
            registration = LifetimeRegistration(binding: target, messages: messages)
            let token = RegistrationToken { [weak self, weak registration] in
                guard let registration, registration.isActive else { return }
                self?.end(registration, id: id)
            }
            registration.token = token
            registration.bag = holder.registrations
            holder.registrations.insert(token)
            // The multiplexer does not own the target: give back the reference `binding` took.
            Unmanaged.passUnretained(holder as AnyObject).release()
        } else {
            registration = LifetimeRegistration(load: Schema.weakReference(to: target), messages: messages)
            weaklyHeld += 1
        }
        registrations.append(registration, for: id)
    }

    /// Unregisters `target`. A dispatch already in flight still delivers to
    /// it; its token stays in the target's bag until no dispatch holds the
    /// registration, so that the target's death is still noticed meanwhile.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        guard let (id, _) = registry.remove(target) else { return }
        if registrations.entries.contains(where: { $0.id == id && !$0.value.isBound }) { weaklyHeld -= 1 }
        registrations.remove(id)
    }

    /// Ends a bound registration whose target is being deallocated.
    private func end(_ registration: LifetimeRegistration<Schema>, id: ObjectIdentifier) {
        assert(invoking !== registration,
               "a RegistrationHolder released its last strong reference inside its own callback")
        registration.deactivate()
        _ = registry.remove(id: id)
        registrations.remove(id)
    }

    /// Bound targets leave the registry when they die; weakly held ones must be loaded.
    override func hasLiveResponder(to key: Schema.Key) -> Bool {
        guard weaklyHeld > 0 else { return true }
        return registrations.entries.contains {
            $0.value.isActive && $0.value.messages.contains(key) && !$0.value.isDeadWeakReference
        }
    }

    override func pruneDeadTargets() {
        for id in registrations.removeAll(where: \.isDeadWeakReference) {
            _ = registry.remove(id: id)
            weaklyHeld -= 1
        }
    }

    /// Calls every live registered target that responds to `message`, in
    /// order: bound targets directly, others through their weak reference.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        let snapshot = registrations.entries
        for entry in snapshot where entry.value.isActive && entry.value.messages.contains(message.key) {
            let answer: Result
            if let bound = entry.value.bound {
                #if DEBUG
                invoking = entry.value
                defer { invoking = nil }
                #endif
                answer = message.invoke(bound.pointee, arguments)
            } else if let target = entry.value.load?() {
                answer = message.invoke(target, arguments)
            } else {
                continue
            }
            guard shouldContinue(answer) else { return }
        }
    }
}

/// One registration of a ``LifetimeBoundMultiplexer``.
@usableFromInline
internal final class LifetimeRegistration<Schema: DelegateSchema> {
    /// The target, stored without a reference count of its own, for a
    /// ``RegistrationHolder``; valid while ``isActive``.
    @usableFromInline let bound: UnsafeMutablePointer<Schema.Target>?
    /// The weak reference, for any other target.
    @usableFromInline let load: (() -> Schema.Target?)?
    @usableFromInline let messages: MessageSet<Schema.Key>
    /// Read on every delivery; written only by the same thread when the
    /// target dies, so dynamic exclusivity checks are not needed.
    @exclusivity(unchecked) @usableFromInline private(set) var isActive = true
    /// Owned by the target's bag, so that the bag's death ends the registration.
    weak var token: RegistrationToken?
    weak var bag: RegistrationBag?

    var isBound: Bool { bound != nil }

    /// Whether this is a weak registration whose target has been deallocated.
    /// (A bound registration ends itself when its target dies.)
    var isDeadWeakReference: Bool { !isBound && load?() == nil }

    /// A registration for a holder. Copies `target` into storage (which takes
    /// a reference that the caller gives back).
    init(binding target: Schema.Target, messages: MessageSet<Schema.Key>) {
        let storage = UnsafeMutablePointer<Schema.Target>.allocate(capacity: 1)
        storage.initialize(to: target)
        bound = storage
        load = nil
        self.messages = messages
    }

    init(load: @escaping () -> Schema.Target?, messages: MessageSet<Schema.Key>) {
        bound = nil
        self.load = load
        self.messages = messages
    }

    /// Stops delivery to this registration: its target is being deallocated.
    func deactivate() {
        isActive = false
    }

    deinit {
        // No list or dispatch holds the registration any more: its token is no longer needed.
        if let token { bag?.remove(token) }
        // The stored reference was never counted: free the memory without releasing it.
        bound?.deallocate()
    }
}
