/// How one strategy stores its targets and dispatches to them: what a
/// ``Multiplexer`` composes.
///
/// Fanout's strategies are storages: ``ExistentialArrayStorage``,
/// ``ClosureTableStorage``, ``SelectorDictionaryStorage``, ``WeakArrayStorage``,
/// ``LifetimeBoundStorage`` and ``ConcurrentStorage``, used through
/// ``Multiplexer`` (their typealiases, such as ``ExistentialArrayMultiplexer``,
/// name the pairs).
///
/// The set is closed: ``Multiplexer`` dispatches to each of these with code
/// specialized for it, which a storage defined elsewhere could not get
/// through a protocol conformance generic over the storage, so
/// `Multiplexer.init()` traps for any other storage. A new strategy is added
/// to Fanout itself; `Documentation/WritingAStrategy.md` says how and what it
/// must guarantee.
///
/// A storage is a class: the multiplexer holds it by reference, so a dispatch
/// can read it while callbacks change it.
public protocol MultiplexerStorage<Schema>: AnyObject {
    /// The delegate protocol the storage's targets implement.
    associatedtype Schema: DelegateSchema

    /// An empty storage.
    init()

    /// Registers `target` (see ``Multiplexing/add(_:)``). It must read the
    /// target's `responds(to:)` before changing anything, so that
    /// `responds(to:)` may call the multiplexer.
    func add(_ target: Schema.Target)

    /// Unregisters `target` (see ``Multiplexing/remove(_:)``).
    func remove(_ target: Schema.Target)

    /// The number of live registered targets.
    var count: Int { get }

    /// Whether any live registered target responds to the message named `key`.
    func responds(to key: Schema.Key) -> Bool

    /// Sends `message` to each registered target that responds to it, in
    /// registration order, for as long as `shouldContinue` accepts the
    /// answers. The targets are those registered when the call began, and each
    /// is kept alive while its callback runs, whatever the callbacks do.
    func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    )
}
