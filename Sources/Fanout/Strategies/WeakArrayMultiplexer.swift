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
public final class WeakArrayMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreadedStrategy,
    PinnedArrayOwner
{
    #if !FANOUT_CHECK_EXCLUSIVITY  // read in place by pinned dispatches: see SingleThreadedCore
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var core = SingleThreadedCore<Schema, HeldTarget<Schema>>()

    public var respondersDidChange: (() -> Void)?

    public init() {}

    /// Registers `target` weakly; registering a live registered target again does nothing.
    ///
    /// - Complexity: Amortized O(*k*); O(*n*) when the target's address is already registered, to tell a live
    ///   duplicate from a dead target whose memory a new object reuses.
    public func add(_ target: Schema.Target) {
        announcingChanges { addNow(target) }
    }

    private func addNow(_ target: Schema.Target) {
        confined {
            let id = Schema.identity(of: target)
            // A lookup first, so that a new target, the common case, costs no mutating access.
            if core.table.contains(id) { core.table.remove(id, if: { $0.isDeadWeakReference }) }
            guard !core.table.contains(id), let messages = Table.responses(of: target, id: id, addingTo: self)
            else { return }
            core.table.append(HeldTarget(target, hold: .weak), id: id, messages: messages)
        }
    }

    /// Unregisters `target`.
    ///
    /// - Complexity: O(*n*).
    public func remove(_ target: Schema.Target) {
        announcingChanges { confined { core.table.remove(Schema.identity(of: target)) } }
    }

    /// The number of live registered targets; drops the dead ones first.
    ///
    /// - Complexity: O(*n*).
    public var count: Int {
        announcingChanges {
            confined {
                dropDeadTargets()
                return core.table.count
            }
        }
    }

    /// Drops the registrations whose targets are dead, giving back their memory and nothing else: no user code.
    @usableFromInline
    func dropDeadTargets() {
        core.table.removeAll { $0.isDeadWeakReference }  // a closure: a key path to a generic class's member allocates
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) when none responds; otherwise one check per dead responder before the first live one.
    public func responds(to key: Schema.Key) -> Bool {
        confined {
            core.table.responds(to: key)
                && core.table.entries.contains { $0.messages.contains(key) && !$0.value.isDeadWeakReference }
        }
    }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every live registered target that
    /// responds to `key`, in order, each retained for its call; skips dead ones, which the dispatch's end drops.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<WeakArrayMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        storage.dispatch(pinning: storage) { entries, index in
            guard _fastPath(entries[index].messages.contains(key)) else { return true }
            // Borrowed from the pinned buffer, which keeps it alive: read as `Unmanaged`, it is not retained.
            return Unmanaged.passUnretained(entries[index].value).callRetained(
                while: shouldContinue, invoking: invoke, ifGone: storage.dropGoneTargetsWhenDispatchesEnd)
        }
    }
}
