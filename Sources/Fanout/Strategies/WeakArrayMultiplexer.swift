/// A multiplexer that holds its targets weakly: the multicast delegate most libraries ship. A deallocated target
/// receives nothing and is pruned.
///
/// ```swift
/// let multiplexer = WeakArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)     // not retained: keep `behavior` alive yourself
/// ```
///
/// One array of weak references, each with the messages its target responds to. Every delivery loads a weak
/// reference, whose +1 keeps the target alive through its call: a weak load and a release per target on top of
/// the call. A dispatch pins the table's buffer (`PinnedArray`), so it counts no reference of its own. `count`
/// first drops deallocated targets and `responds(to:)` looks for a live responder, so both are exact for live
/// targets. Single-threaded.
public final class WeakArrayMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreaded, PinnedArrayOwner {
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, LifetimeRegistration<Schema>>

    /// Read in place by pinned dispatches; every access is instantaneous, so no dynamic exclusivity check is needed.
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var table = Table()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    public var respondersDidChange: (() -> Void)?

    /// Read and written in single instantaneous accesses (``SingleThreaded``): no dynamic exclusivity check needed.
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
            table.append(LifetimeRegistration(target, hold: .weak), id: id, messages: messages)
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
                table.removeAll(where: \.isDeadWeakReference)
                return table.count
            }
        }
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) when none responds; otherwise one weak load per dead responder before the first live one.
    public func responds(to key: Schema.Key) -> Bool {
        confinement.run(self) {
            table.responds(to: key)
                && table.entries.contains { $0.messages.contains(key) && !$0.value.isDeadWeakReference }
        }
    }

    /// This strategy's delivery (``_TargetCalling``): calls, with `invoke`, every live registered target that
    /// responds to `key`, in order, skipping deallocated ones; each weak load's +1 keeps its target alive.
    ///
    /// - Complexity: O(*n*) weak loads, where *n* is the number of targets.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<WeakArrayMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        storage.dispatch { entries in  // the buffer pinned, to the end
            let sent = KeySet(key)
            let count = entries.count
            var index = 0
            while index < count {
                defer { index &+= 1 }
                guard entries[index].messages.intersects(sent) else { continue }
                // Borrowed from the pinned buffer, which keeps it alive: read as `Unmanaged`, it is not retained.
                let reference = Unmanaged.passUnretained(entries[index].value)
                // A strong reference (the weak load's +1) holds the target until its call returns.
                guard let object = reference._withUnsafeGuaranteedRef({ $0.weakObject }) else { continue }
                let stored = reference._withUnsafeGuaranteedRef { $0.stored }
                let proceed = shouldContinue(lend(&stored.pointee, to: invoke))
                _fixLifetime(object)
                guard proceed else { break }
            }
        }
    }
}
