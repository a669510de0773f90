/// The ways a multiplexer can store its targets and dispatch to them, for choosing one at run time; compared in
/// <doc:Strategies>.
///
/// ```swift
/// for strategy in DispatchStrategy.allCases {
///     let multiplexer = strategy.makeMultiplexer(for: LifecycleSchema.self)
///     ...
/// }
/// ```
public enum DispatchStrategy: String, CaseIterable, Sendable {
    /// ``ExistentialArrayMultiplexer``: one array of protocol existentials.
    case existentialArray
    /// ``ClosureTableMultiplexer``: per message, the list of the targets that respond to it.
    case closureTable
    /// ``SelectorDictionaryMultiplexer``: typed handlers keyed by selector, plus forwarding by name at run time.
    case selectorDictionary
    /// ``WeakArrayMultiplexer``: targets held weakly, a weak load per delivery.
    case weakArray
    /// ``LifetimeBoundMultiplexer``: ``RegistrationHolder`` targets bound to their lifetime, without a weak load.
    case lifetimeBound
    /// ``ConcurrentMultiplexer``: safe to use from many threads at once.
    case concurrent

    /// Whether the strategy keeps its targets alive until they are removed (`false` for the weak strategies).
    public var holdsTargetsStrongly: Bool {
        switch self {
        case .existentialArray, .closureTable, .selectorDictionary, .concurrent: true
        case .weakArray, .lifetimeBound: false
        }
    }

    /// A new, empty multiplexer for `schema`: an instance of ``multiplexerType(for:)``, which conforms to the
    /// delegate protocol where the app declares that strategy's conformance, one line per strategy
    /// (<doc:ReusingForYourProtocol>): `multiplexer as? any LifecycleObserver` then succeeds.
    public func makeMultiplexer<Schema: DelegateSchema>(for schema: Schema.Type) -> any Multiplexing<Schema> {
        multiplexerType(for: schema).init()
    }

    /// The multiplexer type implementing this strategy for `schema`.
    public func multiplexerType<Schema: DelegateSchema>(for schema: Schema.Type) -> any Multiplexing<Schema>.Type {
        switch self {
        case .existentialArray: ExistentialArrayMultiplexer<Schema>.self
        case .closureTable: ClosureTableMultiplexer<Schema>.self
        case .selectorDictionary: SelectorDictionaryMultiplexer<Schema>.self
        case .weakArray: WeakArrayMultiplexer<Schema>.self
        case .lifetimeBound: LifetimeBoundMultiplexer<Schema>.self
        case .concurrent: ConcurrentMultiplexer<Schema>.self
        }
    }
}
