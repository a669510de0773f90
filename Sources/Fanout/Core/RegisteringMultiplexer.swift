/// The part every strategy shares: the ``Registry`` of targets, and the
/// `count` and `responds(to:)` answered from it. Strategies subclass it and
/// add their dispatch storage.
public class RegisteringMultiplexer<Schema: DelegateSchema> {
    @usableFromInline
    internal var registry = Registry<Schema>()

    /// Creates a multiplexer with no targets.
    public init() {}

    /// The number of registered targets.
    ///
    /// - Complexity: O(1).
    public final var count: Int { registry.count }

    /// Whether any registered target responds to `key`.
    ///
    /// - Complexity: O(1).
    public final func responds(to key: Schema.Key) -> Bool { registry.responds(to: key) }
}
