/// The part most strategies share: the ``Registry`` of targets, and the
/// `count` and `responds(to:)` answered from it. Strategies subclass it and
/// add their dispatch storage; those that hold targets weakly override
/// ``pruneDeadTargets()`` so that both answers count live targets only.
public class RegisteringMultiplexer<Schema: DelegateSchema> {
    @usableFromInline
    internal var registry = Registry<Schema>()

    #if DEBUG
    /// Catches use from a second thread (debug builds).
    @usableFromInline
    internal let confinement = ThreadConfinement()
    #endif

    /// Creates a multiplexer with no targets.
    public init() {}

    /// The number of live registered targets.
    ///
    /// - Complexity: O(1) for the strong strategies; O(*n*) for the weak ones,
    ///   which first drop deallocated targets.
    public final var count: Int {
        beginCall()
        defer { endCall() }
        pruneDeadTargets()
        return registry.count
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) for the strong strategies; for the weak ones, one
    ///   weak load per dead responder before the first live one.
    public final func responds(to key: Schema.Key) -> Bool {
        beginCall()
        defer { endCall() }
        return registry.responds(to: key) && hasLiveResponder(to: key)
    }

    /// The messages `target` responds to, read for `add` before anything
    /// changes; `nil` when `target` is registered already, or when this
    /// thread is adding it already (its `responds(to:)` added it again).
    final func responsesForAdding(_ target: Schema.Target, id: ObjectIdentifier) -> MessageSet<Schema.Key>? {
        guard !registry.contains(id) else { return nil }
        return Registry<Schema>.responses(of: target, id: id, addingTo: self)
    }

    /// Forgets targets that have been deallocated. Strong strategies have none.
    @usableFromInline
    internal func pruneDeadTargets() {}

    /// Whether a target that responds to `key` is still alive; called only
    /// when the registry counts one. Strong strategies' targets always are.
    @usableFromInline
    internal func hasLiveResponder(to key: Schema.Key) -> Bool { true }

    /// Marks the start of a public call: in debug builds, traps when another
    /// thread is inside one (the strategy is single-threaded). Nothing in
    /// release builds.
    @inlinable
    @inline(__always)
    internal final func beginCall() {
        #if DEBUG
        confinement.enter(self)
        #endif
    }

    /// Marks the end of the call begun last.
    @inlinable
    @inline(__always)
    internal final func endCall() {
        #if DEBUG
        confinement.exit()
        #endif
    }
}
