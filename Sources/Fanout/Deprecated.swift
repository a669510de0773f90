/// The former common superclass of most strategies; every strategy is now a
/// ``Multiplexer`` over a storage.
@available(*, deprecated, message: "every strategy is a Multiplexer now; use any Multiplexing<Schema> or Multiplexer<Storage>")
public typealias RegisteringMultiplexer<Schema: DelegateSchema> = any Multiplexing<Schema>

/// The former common superclass of the closure strategies; they are now
/// ``Multiplexer``s over ``ClosureTableStorage`` and ``SelectorDictionaryStorage``.
@available(*, deprecated, message: "every strategy is a Multiplexer now; use any Multiplexing<Schema> or Multiplexer<Storage>")
public typealias ClosureBindingMultiplexer<Schema: DelegateSchema> = any Multiplexing<Schema>
