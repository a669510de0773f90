import FanoutSupport

/// A multiplexer with weak semantics and no weak load per delivery, for
/// behaviours whose lifetime is bound to an object: their own (a
/// ``RegistrationHolder``) or their owner's.
///
/// ```swift
/// let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
/// multiplexer.add(parallaxHeader)                    // a RegistrationHolder: bound to its own lifetime
/// multiplexer.add(pullToRefresh, boundTo: screen)    // held until `screen` is deallocated
/// ```
///
/// A target that is a ``RegistrationHolder`` is stored without a reference
/// count of its own, and a token in its ``RegistrationBag`` removes the
/// registration when the target is deallocated; any other target is held
/// weakly, as by ``WeakArrayMultiplexer``.
///
/// Three ways to register, from the default:
/// - ``LifetimeBoundMultiplexer/add(_:)``: never keeps a target alive. A holder is retained for the
///   duration of each of its calls (one retain and one release per
///   delivery, the price of memory safety: its callback may make its owner
///   let go of it); any other target is loaded through a weak reference.
/// - ``LifetimeBoundMultiplexer/add(_:boundTo:)``: the target is held strongly until its *owner*, a
///   ``RegistrationHolder``, is deallocated, as a behaviour bound to its
///   screen with an associated object in Objective-C. No reference counting
///   per delivery: the dispatch's pinned buffer keeps the target alive.
/// - ``unsafeAddUnretained(_:)``: a holder called without any retain, for
///   code that guarantees the holder outlives every one of its calls.
///
/// Single-threaded.
public final class LifetimeBoundMultiplexer<Schema: DelegateSchema>: _TargetCalling, PinnedTableStorage,
    AnnouncingStorage
{
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, LifetimeSlot<Schema>>

    /// A dispatch pins it and reads it in place; every access is
    /// instantaneous, so it needs no dynamic exclusivity check
    /// (Documentation/WritingAStrategy.md).
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var table = Table()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    /// How many registrations are weak references (targets that are not holders).
    private var weaklyHeld = 0

    /// How many registrations are holders bound to their own lifetime, retained
    /// for each call.
    private var selfBound = 0

    internal var announcement = RespondersAnnouncement()

    /// Called when the set of messages some target responds to changes
    /// (``Multiplexing/respondersDidChange``).
    public var respondersDidChange: (() -> Void)? {
        get { announcement.handler }
        set { announcement.handler = newValue }
    }

    /// Announces the change made during the dispatches that just ended.
    @usableFromInline
    internal func dispatchesEnded() { announceDeferred() }

    var respondingBits: UInt64 { table.respondingBits }

    /// A dispatch pinned the table's buffer, or a mutation since retired it.
    var isDispatching: Bool { table.isDispatching }

    /// An empty storage.
    public init() {}

    /// Registers `target` without keeping it alive: bound to its lifetime if it
    /// is a ``RegistrationHolder`` (retained only while one of its callbacks
    /// runs), weakly otherwise. Registering a live registered target again
    /// does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is
    ///   already registered, to tell a live duplicate from a dead weakly held
    ///   target whose memory a new object reuses.
    public func add(_ target: Schema.Target) {
        if let holder = target as? any RegistrationHolder {
            register(target, hold: .retainedPerCall, bag: holder.registrations)
        } else {
            register(target, hold: .weak, bag: nil)
        }
    }

    /// Registers `target` strongly until `owner` is deallocated (or `target`
    /// is removed): the behaviour lives as long as the object it belongs to.
    /// Registering a live registered target again does nothing.
    ///
    /// - Parameters:
    ///   - target: The behaviour; the multiplexer keeps it alive.
    ///   - owner: The object whose deallocation ends the registration, such as
    ///     the screen the behaviour belongs to.
    /// - Precondition: `owner` is not `target` itself (the multiplexer would
    ///   keep it alive for ever); use ``add(_:)`` for a holder bound to itself.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target, boundTo owner: some RegistrationHolder) {
        precondition(
            Schema.identity(of: target) != ObjectIdentifier(owner),
            "add(_:boundTo:) with a target bound to itself would keep it alive for ever; use add(_:)")
        register(target, hold: .strong, bag: owner.registrations)
    }

    /// Registers a ``RegistrationHolder`` that is called without any
    /// reference counting: no retain, no weak load.
    ///
    /// - Precondition: `target` is a ``RegistrationHolder``, and it stays
    ///   alive for as long as any of its callbacks runs: neither the callback
    ///   nor anything it calls (another target's callback for a nested
    ///   message included) may release the last strong reference to it.
    ///   Otherwise the rest of the callback runs on freed memory. Debug builds
    ///   trap on that misuse, whatever path leads to it; release builds do not
    ///   check.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    @unsafe
    public func unsafeAddUnretained(_ target: Schema.Target) {
        guard let holder = target as? any RegistrationHolder else {
            preconditionFailure("unsafeAddUnretained(_:) takes a RegistrationHolder, got \(type(of: target))")
        }
        register(target, hold: .unretained, bag: holder.registrations)
    }

    private func register(_ target: Schema.Target, hold: LifetimeRegistration<Schema>.Hold, bag: RegistrationBag?) {
        announcingChanges { registerNow(target, hold: hold, bag: bag) }
    }

    private func registerNow(_ target: Schema.Target, hold: LifetimeRegistration<Schema>.Hold, bag: RegistrationBag?) {
        confinement.begin(self)
        defer { confinement.end() }
        let id = Schema.identity(of: target)
        // A new target, the common case, costs a lookup, not a mutating access (as in `WeakArrayMultiplexer.addNow`).
        if table.contains(id), table.remove(id, if: { $0.isDeadWeakReference }) != nil { weaklyHeld -= 1 }
        guard let (id, messages) = Table.newMember(target, addingTo: self, isRegistered: { self.table.contains($0) })
        else { return }
        let registration = LifetimeRegistration(target, hold: hold)
        if let bag {
            let token = RegistrationToken { [weak self, weak registration] in
                guard let registration, registration.isActive else { return }
                self?.end(registration, id: id)
            }
            registration.token = token
            registration.bag = bag
            bag.insert(token)
        } else {
            weaklyHeld += 1
        }
        if hold == .retainedPerCall { selfBound += 1 }
        table.append(LifetimeSlot(registration, target: target), id: id, messages: messages)
    }

    /// Unregisters `target`. A dispatch already in flight still delivers to
    /// it; its token stays in the bag until no dispatch holds the
    /// registration, so that the target's death is still noticed meanwhile.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        announcingChanges {
            confinement.run(self) {
                guard let entry = table.remove(Schema.identity(of: target)) else { return }
                if entry.value.hold == .weak { weaklyHeld -= 1 }
                if entry.value.hold == .retainedPerCall { selfBound -= 1 }
            }
        }
    }

    /// Ends a registration whose bag is being deallocated: its holder's, or
    /// its owner's.
    private func end(_ registration: LifetimeRegistration<Schema>, id: ObjectIdentifier) {
        let removed = announcingChanges { endNow(registration, id: id) }
        // Released last, with the table consistent and the change announced: it may hold the last reference to a
        // target bound to an owner, whose deinit may use this storage.
        _ = consume removed
    }

    private func endNow(_ registration: LifetimeRegistration<Schema>, id: ObjectIdentifier) -> Table.Entry? {
        confinement.begin(self)
        defer { confinement.end() }
        #if DEBUG
            precondition(
                registration.callsInFlight == 0,
                "a RegistrationHolder added with unsafeAddUnretained(_:) was deallocated while one of its own callbacks "
                    + "was running: register it with add(_:), which retains it for each call")
        #endif
        registration.deactivate()
        // Only this registration ends. If its target was removed and added again during a dispatch, that
        // dispatch's buffer still holds this registration (and the bag its token), and the id names the new one.
        let removed = table.remove(id, if: { $0.registration === registration })
        if removed?.value.hold == .retainedPerCall { selfBound -= 1 }
        // A dispatch in flight calls it no more; one registered again since is another registration.
        table.silenceEnded { $0.value.registration === registration }
        return removed
    }

    /// The number of live registered targets; drops dead weakly held ones
    /// first. A holder inside its own deinit is not counted.
    ///
    /// - Complexity: O(1) when every target is bound to an owner; O(*n*)
    ///   otherwise.
    public var count: Int {
        announcingChanges {
            confinement.run(self) {
                if weaklyHeld > 0 {
                    let before = table.count
                    table.removeAll(where: \.isDeadWeakReference)
                    weaklyHeld -= before - table.count
                }
                guard selfBound > 0 else { return table.count }
                return table.count - table.entries.count { $0.value.registration.isDeallocating }
            }
        }
    }

    /// Whether any live registered target responds to `key`. Targets bound
    /// to an owner leave the table when it dies; weakly held ones must be
    /// loaded, and a holder may be inside its deinit.
    public func responds(to key: Schema.Key) -> Bool {
        confinement.run(self) {
            guard table.responds(to: key) else { return false }
            guard weaklyHeld > 0 || selfBound > 0 else { return true }
            return table.entries.contains {
                $0.value.registration.isActive && $0.messages.contains(key) && !$0.value.registration.isGone
            }
        }
    }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every live registered target that
    /// responds to the message named `key`, in order: a holder retained for its call, a target bound to an owner as
    /// held, others through their weak reference.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    @inlinable @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<LifetimeBoundMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        PinnedDispatch.run(storage) { deliver(key, to: $0, while: shouldContinue, invoking: invoke) }
    }

    /// Calls, with `invoke`, every live registration of `entries` that responds to the message named `key`, in order,
    /// while `shouldContinue` accepts the answers; the caller keeps `entries` alive.
    @inlinable @inline(__always)
    internal static func deliver<Result>(
        _ key: Schema.Key, to entries: UnsafeBufferPointer<Table.Entry>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        // Through the buffer, indexing: iterating the array copies each
        // registration out, a retain and a release per delivery (the
        // registration has a side table, for the weak reference its token
        // holds, so that pair takes the runtime's slow path: ~250
        // instructions, measured).
        // A registration that ended during the dispatch has had its messages cleared in `entries`
        // (`RegistrationTable.silenceEnded(where:)`): the mask alone says whom to call.
        let sent = MessageSet(key)
        let count = entries.count
        var index = 0
        while true {
            // `existentialArray`'s loop (`RegistrationTable.deliver`): the skip in a loop of its own, marked
            // unlikely, and the target bound to an owner marked likely.
            while index < count && _slowPath(!entries[index].messages.intersects(sent)) { index &+= 1 }
            guard index < count else { return }
            if _fastPath(entries[index].value.owned != nil) {
                // Bound to an owner: the entry owns the target, and the pinned buffer the entry. Read in place, one
                // load from the buffer to the call, as `existentialArray` reads its targets.
                guard shouldContinue(invoke(entries[index].value.owned.unsafelyUnwrapped)) else { return }
            } else {
                guard
                    deliver(
                        toHeldApart: entries.baseAddress.unsafelyUnwrapped + index, while: shouldContinue,
                        invoking: invoke)
                else { return }
            }
            index &+= 1
        }
    }

    /// Calls, with `invoke`, the target of `entry`, a registration not bound to an owner, unless it is a weak
    /// reference whose target is gone; returns whether the dispatch goes on. The caller keeps `entry` alive.
    @inlinable @inline(__always)
    internal static func deliver<Result>(
        toHeldApart entry: UnsafePointer<Table.Entry>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) -> Bool {
        // +1 on the target until the call returns, whatever the callback does (a holder's retain, or the weak
        // load's own +1, taken atomically, so that a target released elsewhere is either loaded alive or skipped),
        // or nothing for `unretained`, whose caller guarantees the target outlives its calls (counted in debug
        // builds). The +1 is given back through the registration's `object`, the same object, and the hold read
        // again after the call, so that no value read from the entry is live across the call. The registration is
        // read in place each time: a copy of the reference is a retain and a release.
        let hold = entry.pointee.value.hold
        assert(hold != .strong, "a target bound to an owner is called from its entry, not here")
        if hold == .retainedPerCall {
            // Retained unless it is inside its own deinit: a holder stays registered until its bag goes, after the
            // deinit's body, and is then not called, as a weak load would not load it. Explicit: a copy of
            // `pointee` is optimized into a borrow, which would not keep the target alive.
            let object = entry.pointee.value.registration.object.unsafelyUnwrapped.toOpaque()
            guard swift_tryRetain(object) != nil else { return true }
        } else if hold == .weak {
            guard let object = entry.pointee.value.registration.weakObject else { return true }
            _ = Unmanaged.passRetained(object)  // the weak load's +1, kept past `object`
        } else {
            #if DEBUG
                entry.pointee.value.registration.callsInFlight += 1
            #endif
        }
        let proceed = shouldContinue(invoke(entry.pointee.value.stored.pointee))
        if entry.pointee.value.hold != .unretained {
            entry.pointee.value.registration.object.unsafelyUnwrapped.release()
        } else {
            #if DEBUG
                entry.pointee.value.registration.callsInFlight -= 1
            #endif
        }
        return proceed
    }
}

/// One entry of a ``LifetimeBoundMultiplexer``'s table: the registration, and,
/// for a target bound to an owner, the target itself.
@frozen @usableFromInline
internal struct LifetimeSlot<Schema: DelegateSchema> {
    @usableFromInline let registration: LifetimeRegistration<Schema>
    /// The target of a registration bound to an owner (`.strong`), owned by
    /// the entry as `existentialArray`'s entries own theirs, so that a
    /// dispatch calls it from the pinned buffer without going through the
    /// registration; `nil` for the other registrations, whose targets the
    /// table must not keep alive.
    @usableFromInline let owned: Schema.Target?
    /// The registration's ``LifetimeRegistration/stored``, copied here so
    /// that a dispatch reaches the target of the other registrations without
    /// going through the registration first.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The registration's ``LifetimeRegistration/hold``, copied here for the same reason.
    @usableFromInline let hold: LifetimeRegistration<Schema>.Hold

    init(_ registration: LifetimeRegistration<Schema>, target: Schema.Target) {
        self.registration = registration
        hold = registration.hold
        owned = hold == .strong ? target : nil
        stored = registration.stored
    }

    /// Whether this is a weak registration whose target has been deallocated.
    var isDeadWeakReference: Bool { registration.isDeadWeakReference }
}

/// One registration of a ``LifetimeBoundMultiplexer``.
@usableFromInline
internal final class LifetimeRegistration<Schema: DelegateSchema> {
    /// How the registration holds its target.
    @usableFromInline
    internal enum Hold {
        /// Owned until the owner's bag ends the registration (``LifetimeBoundMultiplexer/add(_:boundTo:)``).
        case strong
        /// Stored without a reference count; called as is (``LifetimeBoundMultiplexer/unsafeAddUnretained(_:)``).
        case unretained
        /// Stored without a reference count; retained for each call (``LifetimeBoundMultiplexer/add(_:)``
        /// with a ``RegistrationHolder``).
        case retainedPerCall
        /// A weak reference, loaded for each call.
        case weak
    }

    @usableFromInline let hold: Hold
    /// The target: owned for `strong`, otherwise an uncounted copy (``uncountedCopy(of:)``), valid while
    /// ``isActive`` or, for `weak`, while ``weakObject`` loads.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The target as an object, uncounted, for every hold but `strong`: a dispatch retains and releases a
    /// `retainedPerCall` target through it, and releases through it the +1 of a `weak` target's load; `unretained`
    /// does not use it.
    @usableFromInline let object: Unmanaged<AnyObject>?
    /// The target's object, for `weak`. Written once, by `init`: a dispatch reads it in place, so it needs no dynamic
    /// exclusivity check.
    @exclusivity(unchecked) @usableFromInline weak var weakObject: AnyObject?
    /// Read on every delivery; written only by the same thread when the
    /// target dies, so dynamic exclusivity checks are not needed.
    @exclusivity(unchecked) @usableFromInline private(set) var isActive = true
    /// Owned by the bag, so that the bag's death ends the registration.
    weak var token: RegistrationToken?
    weak var bag: RegistrationBag?

    #if DEBUG
        /// How many calls to an `unretained` target are on the stack: nested
        /// dispatches count up and back down, so a deallocation anywhere inside
        /// any of them is caught.
        @exclusivity(unchecked) @usableFromInline var callsInFlight = 0
    #endif

    /// Whether this is a weak registration whose target has been deallocated.
    /// (The other registrations end themselves when their bag goes.)
    var isDeadWeakReference: Bool { hold == .weak && weakObject == nil }

    /// Whether the target of a holder bound to its own lifetime is inside its
    /// deinit, whose bag ends this registration only after the deinit's body.
    @inlinable
    var isDeallocating: Bool {
        hold == .retainedPerCall && swift_isDeallocating(object.unsafelyUnwrapped.toOpaque())
    }

    /// Whether the target is gone or going: a dead weak reference, or a holder
    /// inside its deinit.
    var isGone: Bool { isDeadWeakReference || isDeallocating }

    init(_ target: Schema.Target, hold: Hold) {
        self.hold = hold
        if hold == .strong {
            stored = .allocate(capacity: 1)
            stored.initialize(to: target)
            object = nil
        } else {
            let (stored, object) = uncountedCopy(of: target)
            self.stored = stored
            self.object = object
            if hold == .weak { weakObject = object.takeUnretainedValue() }
        }
    }

    /// Stops delivery to this registration: its bag is being deallocated.
    func deactivate() {
        isActive = false
    }

    deinit {
        // No list or dispatch holds the registration any more: its token is no longer needed.
        if let token { bag?.remove(token) }
        // An owned target is released; a reference that was given back is not.
        if hold == .strong { stored.deinitialize(count: 1) }
        stored.deallocate()
    }
}
