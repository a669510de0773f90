// The public names of 0.1.0 and of the guide before 0.2.0 that are gone, kept as unavailable (or deprecated)
// declarations whose message is the line that replaces each, so that old glue fails with its migration. CHANGELOG.md
// lists them; Tests/CompileChecks/GuideBefore020.swift checks the messages. DocC leaves them out.

/// Removed in 0.2.0.
// swift-format-ignore
@available(
    *, unavailable,
    message: "each strategy is a class of its own since Fanout 0.2.0: write one conformance line per strategy you use, 'extension ExistentialArrayMultiplexer: P where Schema == S {}', and make one with 'ExistentialArrayMultiplexer<S>()'"
)
public typealias Multiplexer<Storage: Multiplexing> = ExistentialArrayMultiplexer<Storage.Schema>

/// Removed in 0.2.0.
@available(
    *, unavailable, renamed: "Multiplexing",
    message: "the storages are the multiplexers since Fanout 0.2.0: every strategy's class conforms to Multiplexing"
)
public typealias MultiplexerStorage = Multiplexing

/// Removed in 0.2.0.
// swift-format-ignore
@available(*, unavailable, renamed: "ExistentialArrayMultiplexer", message: "the storage is the multiplexer since 0.2.0")
public typealias ExistentialArrayStorage<Schema: DelegateSchema> = ExistentialArrayMultiplexer<Schema>

/// Removed in 0.2.0.
@available(*, unavailable, renamed: "ClosureTableMultiplexer", message: "the storage is the multiplexer since 0.2.0")
public typealias ClosureTableStorage<Schema: DelegateSchema> = ClosureTableMultiplexer<Schema>

/// Removed in 0.2.0.
@available(
    *, unavailable, renamed: "SelectorDictionaryMultiplexer", message: "the storage is the multiplexer since 0.2.0"
)
public typealias SelectorDictionaryStorage<Schema: DelegateSchema> = SelectorDictionaryMultiplexer<Schema>

/// Removed in 0.2.0.
@available(*, unavailable, renamed: "WeakArrayMultiplexer", message: "the storage is the multiplexer since 0.2.0")
public typealias WeakArrayStorage<Schema: DelegateSchema> = WeakArrayMultiplexer<Schema>

/// Removed in 0.2.0.
@available(*, unavailable, renamed: "LifetimeBoundMultiplexer", message: "the storage is the multiplexer since 0.2.0")
public typealias LifetimeBoundStorage<Schema: DelegateSchema> = LifetimeBoundMultiplexer<Schema>

/// Removed in 0.2.0.
@available(*, unavailable, renamed: "ConcurrentMultiplexer", message: "the storage is the multiplexer since 0.2.0")
public typealias ConcurrentStorage<Schema: DelegateSchema> = ConcurrentMultiplexer<Schema>

/// Deprecated in 0.2.0: the type of ``MessageProtocol/forwarder``, spelled out.
// swift-format-ignore
@available(
    *, deprecated,
    message: "no longer a public name since Fanout 0.2.0: write the function type, ([Any], AnyObject?, inout [Any?]) throws -> Void"
)
public typealias MessageForwarder = (_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) throws -> Void

/// Removed in 0.2.0.
// swift-format-ignore
@available(
    *, unavailable,
    message: "internal since Fanout 0.2.0: keep a Set<Key> of the keys a target responds to, or ask a multiplexer's responds(to:)"
)
public typealias MessageSet<Key: MessageKey> = Set<Key>

/// Moved to the module `FanoutStatic` in 0.2.0; its own declaration there hides this one.
// swift-format-ignore
@available(
    *, unavailable,
    message: "moved to the module FanoutStatic in Fanout 0.2.0: add .product(name: \"FanoutStatic\", package: \"Fanout\") to the target's dependencies and 'import FanoutStatic'"
)
public typealias StaticComposition<Schema: DelegateSchema, Elements> = ConcurrentMultiplexer<Schema>

/// Moved to the module `FanoutStatic` in 0.2.0; its own declaration there hides this one.
// swift-format-ignore
@available(
    *, unavailable,
    message: "moved to the module FanoutStatic in Fanout 0.2.0: add .product(name: \"FanoutStatic\", package: \"Fanout\") to the target's dependencies and 'import FanoutStatic'"
)
public typealias ComposedBehaviours = AnyObject

/// Removed before 0.2.0: the public base class of 0.1.0's strategies.
@available(*, unavailable, renamed: "Multiplexing", message: "use any Multiplexing<Schema>, which every strategy is")
public typealias RegisteringMultiplexer<Schema: DelegateSchema> = any Multiplexing<Schema>

/// Removed before 0.2.0: the public base class of 0.1.0's closure strategies.
@available(*, unavailable, renamed: "Multiplexing", message: "use any Multiplexing<Schema>, which every strategy is")
public typealias ClosureBindingMultiplexer<Schema: DelegateSchema> = any Multiplexing<Schema>
