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
    /// - Complexity: O(1) for the strong strategies; O(*n*) for the weak ones.
    public final func responds(to key: Schema.Key) -> Bool {
        pruneDeadTargets()
        return registry.responds(to: key)
    }

    /// Forgets targets that have been deallocated. Strong strategies have none.
    @usableFromInline
    internal func pruneDeadTargets() {}
}
