import FanoutSupport

/// A multiplexer with weak semantics and no weak load per delivery, for behaviours whose lifetime is bound to an
/// object: their own (a ``RegistrationHolder``) or their owner's.
///
/// ```swift
/// let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
/// multiplexer.add(parallaxHeader)                    // a RegistrationHolder: bound to its own lifetime
/// multiplexer.add(pullToRefresh, boundTo: screen)    // held until `screen` is deallocated
/// ```
///
/// ``LifetimeBoundMultiplexer/add(_:)`` never keeps a target alive: a ``RegistrationHolder`` is bound to its own
/// lifetime and retained for each of its calls, since its callback may make its owner let go of it; any other
/// target is held weakly. ``LifetimeBoundMultiplexer/add(_:boundTo:)`` holds a target strongly until its owner is
/// deallocated, with no reference counting per delivery. ``unsafeAddUnretained(_:)`` calls a holder without any
/// retain. Single-threaded.
public final class LifetimeBoundMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreadedStrategy,
    PinnedArrayOwner
{
    #if !FANOUT_CHECK_EXCLUSIVITY  // read in place by pinned dispatches: see SingleThreadedCore
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var core = SingleThreadedCore<Schema, LifetimeSlot<Schema>>()

    /// How many registrations are weak references (targets that are not holders).
    private var weaklyHeld = 0

    /// How many registrations are holders bound to their own lifetime (`retainedPerCall`).
    private var selfBound = 0

    public var respondersDidChange: (() -> Void)?

    public init() {}

    /// Registers `target` without keeping it alive: bound to its lifetime if it is a ``RegistrationHolder``,
    /// weakly otherwise. Registering a live registered target again does nothing, even one bound to an owner.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is already registered, to tell a live
    ///   duplicate from a dead weakly held target whose memory a new object reuses.
    public func add(_ target: Schema.Target) {
        if let holder = target as? any RegistrationHolder {
            register(target, hold: .retainedPerCall, bag: holder.registrations)
        } else {
            register(target, hold: .weak, bag: nil)
        }
    }

    /// Registers `target` strongly until `owner`, such as the screen it belongs to, is deallocated (or `target` is
    /// removed). A target bound to an owner already is bound to this one too, and held until the last of its owners
    /// goes; one registered with ``add(_:)`` is registered anew, bound to `owner`, at the end of the order.
    ///
    /// - Precondition: `owner` is not `target` itself (it would be kept alive for ever); use ``add(_:)`` for that.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target, boundTo owner: some RegistrationHolder) {
        precondition(
            Schema.identity(of: target) != ObjectIdentifier(owner),
            "add(_:boundTo:) with a target bound to itself would keep it alive for ever; use add(_:)")
        register(target, hold: .strong, bag: owner.registrations)
    }

    /// Registers a ``RegistrationHolder`` that is called without any reference counting: no retain, no weak load.
    ///
    /// - Precondition: `target` is a ``RegistrationHolder`` that stays alive while any of its callbacks runs: nothing
    ///   the callback calls, a nested message included, may release the last strong reference to it, or the rest of
    ///   the callback runs on freed memory. Debug builds trap on that misuse; release builds do not check.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    @unsafe
    public func unsafeAddUnretained(_ target: Schema.Target) {
        guard let holder = target as? any RegistrationHolder else {
            preconditionFailure("unsafeAddUnretained(_:) takes a RegistrationHolder, got \(type(of: target))")
        }
        register(target, hold: .unretained, bag: holder.registrations)
    }

    private func register(_ target: Schema.Target, hold: HeldTarget<Schema>.Hold, bag: RegistrationBag?) {
        announcingChanges { confined { registerNow(target, hold: hold, bag: bag) } }
    }

    private func registerNow(_ target: Schema.Target, hold: HeldTarget<Schema>.Hold, bag: RegistrationBag?) {
        let id = Schema.identity(of: target)
        // A lookup first, so that a new target, the common case, costs no mutating access.
        if core.table.contains(id) {
            if let dead = core.table.remove(id, if: { $0.isDeadWeakReference }) {
                weaklyHeld -= 1
                _ = consume dead  // a weak registration owns no target: nothing it frees runs user code
            } else if hold == .strong, let bag, let registration = core.table.value(of: id)?.registration {
                // Registered and alive: bound to one more owner, or, registered with `add(_:)`, replaced by a
                // registration bound to the owner (`add(_:boundTo:)`'s rules).
                if registration.hold == .strong {
                    if !registration.isOwned(by: bag) { bind(registration, to: bag, id: id) }
                    return
                }
                _ = removeNow(id)  // a registration of `add(_:)` owns no target: nothing it frees runs user code
            }
        }
        guard !core.table.contains(id), let messages = Table.responses(of: target, id: id, addingTo: self)
        else { return }
        let registration = HeldTarget(target, hold: hold)
        if let bag {
            bind(registration, to: bag, id: id)
        } else {
            weaklyHeld += 1
        }
        if hold == .retainedPerCall { selfBound += 1 }
        core.table.append(LifetimeSlot(registration, target: target), id: id, messages: messages)
    }

    /// Makes `bag`'s deallocation end `registration`, the registration of `id`, once its other bags are gone too.
    private func bind(_ registration: HeldTarget<Schema>, to bag: RegistrationBag, id: ObjectIdentifier) {
        registration.addOwner(bag) { [weak self, weak registration] in
            guard let registration, registration.isActive, registration.ownerEnded() else { return }
            self?.end(registration, id: id)
        }
    }

    /// Unregisters `target`. A dispatch in flight still delivers to it; its bag keeps what ends it until no
    /// dispatch holds the registration, so that the target's death is still noticed meanwhile.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        announcingChanges { confined { _ = removeNow(Schema.identity(of: target)) } }
    }

    /// Removes the registration of `id`, if any, and returns it: the caller drops it (freeing what it held).
    private func removeNow(_ id: ObjectIdentifier) -> Table.Entry? {
        guard let entry = core.table.remove(id) else { return nil }
        if entry.value.hold == .weak { weaklyHeld -= 1 }
        if entry.value.hold == .retainedPerCall { selfBound -= 1 }
        return entry
    }

    /// Ends a registration whose bag, its holder's or its owner's, is being deallocated.
    private func end(_ registration: HeldTarget<Schema>, id: ObjectIdentifier) {
        let removed = announcingChanges { confined { endNow(registration, id: id) } }
        // Released last, with the table consistent and the change announced: it may hold the last reference to a
        // target bound to an owner, whose deinit may use this storage.
        _ = consume removed
    }

    private func endNow(_ registration: HeldTarget<Schema>, id: ObjectIdentifier) -> Table.Entry? {
        #if DEBUG
            precondition(
                registration.callsInFlight == 0,
                "a RegistrationHolder added with unsafeAddUnretained(_:) was deallocated while one of its own callbacks "
                    + "was running: register it with add(_:), which retains it for each call")
        #endif
        registration.deactivate()
        // Only this registration ends. If its target was removed and added again during a dispatch, that
        // dispatch's buffer still holds this registration (and the bag what ends it), and the id names the new one.
        let removed = core.table.remove(id, if: { $0.registration === registration })
        if removed?.value.hold == .retainedPerCall { selfBound -= 1 }
        core.table.silenceEnded { $0.value.registration === registration }
        return removed
    }

    /// The number of live registered targets, dropping dead weakly held ones first; a holder inside its own deinit
    /// is not counted.
    ///
    /// - Complexity: O(1) when every target is bound to an owner; O(*n*) otherwise.
    public var count: Int {
        announcingChanges {
            confined {
                dropDeadTargets()
                guard selfBound > 0 else { return core.table.count }
                var deallocating = 0
                for entry in core.table.entries where entry.value.registration.isDeallocating { deallocating += 1 }
                return core.table.count - deallocating
            }
        }
    }

    /// Drops the weak registrations whose targets are dead, giving back their memory and nothing else: no user code.
    /// (A holder's registration is ended by its bag.)
    @usableFromInline
    func dropDeadTargets() {
        guard weaklyHeld > 0 else { return }
        let before = core.table.count
        core.table.removeAll { $0.isDeadWeakReference }  // a closure: a key path to a generic class's member allocates
        weaklyHeld -= before - core.table.count
    }

    /// Whether any live registered target responds to `key`: weakly held targets are loaded, and a holder may be
    /// inside its deinit.
    public func responds(to key: Schema.Key) -> Bool {
        confined {
            guard core.table.responds(to: key) else { return false }
            guard weaklyHeld > 0 || selfBound > 0 else { return true }
            return core.table.entries.contains {
                $0.value.registration.isActive && $0.messages.contains(key) && !$0.value.registration.isGone
            }
        }
    }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every live registered target that
    /// responds to `key`, in order: a holder retained for its call, others as held or through their weak reference.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<LifetimeBoundMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        // A registration that ended during the dispatch has its messages cleared in the pinned entries
        // (`RegistrationTable.silenceEnded(where:)`): the skip test below says whom to call.
        storage.dispatch(pinning: storage) { entries, index in
            guard _fastPath(entries[index].messages.contains(key)) else { return true }
            // Bound to an owner: the entry owns the target, and the pinned buffer the entry. Read in place: from the
            // entry where the schema is concrete, else from the registration's copy (the same target, alive as long),
            // as reading the entry's optional in generic code copies the entry.
            if _isConcrete(Schema.self) {
                if _fastPath(entries[index].value.owned != nil) {
                    return shouldContinue(lend(&entries[index].value.owned!, to: invoke))
                }
            } else if (entries.baseAddress.unsafelyUnwrapped + index).pointee.value.hold == .strong {
                return shouldContinue(lend(&entries[index].value.stored.pointee, to: invoke))
            }
            return deliver(
                toHeldApart: entries.baseAddress.unsafelyUnwrapped + index, in: storage, while: shouldContinue,
                invoking: invoke)
        }
    }

    /// Calls, with `invoke`, the target of `entry`, a registration not bound to an owner, unless its target is gone;
    /// returns whether the dispatch goes on. The caller keeps `entry` alive.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal static func deliver<Result>(
        toHeldApart entry: UnsafePointer<Table.Entry>, in storage: Unmanaged<LifetimeBoundMultiplexer>,
        while shouldContinue: (Result) -> Bool, invoking invoke: (Schema.Target) -> Result
    ) -> Bool {
        assert(entry.pointee.value.hold != .strong, "a target bound to an owner is called from its entry, not here")
        if entry.pointee.value.hold == .unretained {
            // The caller guarantees that the target outlives its calls (counted in debug builds).
            #if DEBUG
                entry.pointee.value.registration.callsInFlight += 1
                defer { entry.pointee.value.registration.callsInFlight -= 1 }
            #endif
            return shouldContinue(lend(&entry.pointee.value.stored.pointee, to: invoke))
        }
        // A holder inside its own deinit is skipped too; its bag ends the registration after the deinit's body.
        return Unmanaged.passUnretained(entry.pointee.value.registration).callRetained(
            while: shouldContinue, invoking: invoke, ifGone: storage.dropGoneTargetsWhenDispatchesEnd)
    }
}
