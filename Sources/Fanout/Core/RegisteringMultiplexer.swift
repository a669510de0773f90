/// The part most strategies share: the ``Registry`` of targets, and the
/// `count` and `responds(to:)` answered from it. Strategies subclass it and
/// add their dispatch storage; those that hold targets weakly override
/// ``pruneDeadTargets()`` so that both answers count live targets only.
public class RegisteringMultiplexer<Schema: DelegateSchema> {
    @usableFromInline
    internal var registry = Registry<Schema>()

    /// Creates a multiplexer with no targets.
    public init() {}

    /// The number of live registered targets.
    ///
    /// - Complexity: O(1) for the strong strategies; O(*n*) for the weak ones,
    ///   which first drop deallocated targets.
    public final var count: Int {
        pruneDeadTargets()
        return registry.count
    }

    /// Whether any live registered target responds to `key`.
    ///
    /// - Complexity: O(1) for the strong strategies; for the weak ones, one
    ///   weak load per dead responder before the first live one.
    public final func responds(to key: Schema.Key) -> Bool {
        registry.responds(to: key) && hasLiveResponder(to: key)
    }

    /// Forgets targets that have been deallocated. Strong strategies have none.
    @usableFromInline
    internal func pruneDeadTargets() {}

    /// Whether a target that responds to `key` is still alive; called only
    /// when the registry counts one. Strong strategies' targets always are.
    @usableFromInline
    internal func hasLiveResponder(to key: Schema.Key) -> Bool { true }
}
