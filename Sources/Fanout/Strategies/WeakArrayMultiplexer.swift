/// A multiplexer that holds its targets weakly: the multicast delegate most libraries ship. A deallocated target
/// receives nothing and is pruned.
///
/// ```swift
/// let multiplexer = WeakArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)     // not retained: keep `behavior` alive yourself
/// ```
///
/// Every delivery retains each target for its call unless its deinit has begun: a retain and a release per target,
/// the price of memory safety, since a callback may let go of its own target. A dead target is never called; its
/// entry, and with it the target's memory, goes at the end of the next dispatch that reaches it, or at the next
/// `count`. `count` and `responds(to:)` are exact for live targets. Single-threaded.
public final class WeakArrayMultiplexer<Schema: DelegateSchema>: _TargetCalling, ChangeAnnouncing, PinnedArrayOwner {
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, HeldTarget<Schema>>

    /// Read in place by pinned dispatches; every access is instantaneous, so no dynamic exclusivity check is needed.
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var table = Table()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    public var respondersDidChange: (() -> Void)?

    @exclusivity(unchecked) @usableFromInline internal var deferredAnnouncement: UInt64?

    public init() {}

    /// Registers `target` weakly; registering a live registered target again does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is already registered, to tell a live
    ///   duplicate from a dead target whose memory a new object reuses.
    public func add(_ target: Schema.Target) {
        announcingChanges { addNow(target) }
    }

    private func addNow(_ target: Schema.Target) {
        confinement.run(self) {
            let id = Schema.identity(of: target)
            // A lookup first, so that a new target, the common case, costs no mutating access.
            if table.contains(id) { table.remove(id, if: { $0.isDeadWeakReference }) }
            guard
                let (id, messages) = Table.newMember(
                    target, addingTo: self, isRegistered: { self.table.contains($0) })
            else { return }
            table.append(HeldTarget(target, hold: .weak), id: id, messages: messages)
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
    /// - Complexity: O(*n*).
    public var count: Int {
        announcingChanges {
            confinement.run(self) {
                dropDeadTargets()
                return table.count
            }
        }
    }

    /// Drops the registrations whose targets are dead, giving back their memory and nothing else: no user code.
    private func dropDeadTargets() {
        table.removeAll { $0.isDeadWeakReference }  // a closure: a key path to a generic class's member allocates
    }

    /// The last dispatch in flight ended after one found a dead target: drops it and announces the change, once.
    @usableFromInline
    func dispatchesEnded() {
        endDispatches { confinement.run(self) { dropDeadTargets() } }
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) when none responds; otherwise one check per dead responder before the first live one.
    public func responds(to key: Schema.Key) -> Bool {
        confinement.run(self) {
            table.responds(to: key)
                && table.entries.contains { $0.messages.contains(key) && !$0.value.isDeadWeakReference }
        }
    }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every live registered target that
    /// responds to `key`, in order, each retained for its call; skips dead ones, which the dispatch's end drops.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<WeakArrayMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        storage.dispatch { entries in  // the buffer pinned, to the end
            Table.forEachResponder(to: key, in: entries) { index in
                // Borrowed from the pinned buffer, which keeps it alive: read as `Unmanaged`, it is not retained.
                Unmanaged.passUnretained(entries[index].value).callRetained(
                    while: shouldContinue, invoking: invoke, ifGone: storage.dropGoneTargetsWhenDispatchesEnd)
            }
        }
    }
}
