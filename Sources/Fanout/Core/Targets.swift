/// The description of a protocol's targets with no schema: a strategy over `Targets<any P>` holds targets of type
/// `any P` and calls each of them, in registration order, with whatever the caller writes:
///
/// ```swift
/// let observers = ExistentialArrayMultiplexer<Targets<any TableObserver>>()
/// observers.forEach { $0.tableView(table, willDisplay: cell, forRowAt: indexPath) }
/// ```
///
/// The same classes and guarantees as with a ``DelegateSchema``; what needs a key per message needs a schema.
public enum Targets<Target>: DelegateSchema {
    /// The one key: every target is called for every delivery.
    public enum Key: String, MessageKey {
        case every = "*"
    }

    /// One descriptor for ``Key/every``, which calls nothing: the caller writes the call. It forwards nothing by
    /// name: `forward("*", arguments:)` throws ``ForwardingError/unrecognizedSelector(_:known:)``.
    public static var messages: [any MessageProtocol<Targets>] {
        let refuse: ([Any], String) throws -> Void = { _, selector in
            throw ForwardingError.unrecognizedSelector(selector, known: [])
        }
        let every = Message<Targets, Void, Void>(
            key: .every, body: { _, _ in }, binder: { _ in { _ in } }, unpacker: refuse,
            forwarderMaker: { unpacker, selector in { arguments, _, _ in try unpacker(arguments, selector) } })
        return [every]
    }

    public static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor)
    where Visitor.Schema == Targets {}
}

/// A schema with no messages of its own, whose one key every target responds to: ``Targets`` is the one to use.
/// What makes every strategy a ``TargetMultiplexing`` of its targets; a client declares no conformance to it.
public protocol SchemaFree: DelegateSchema {
    /// The key under which a strategy calls every registered target.
    static var everyTarget: Key { get }
}

extension Targets: SchemaFree {
    @_alwaysEmitIntoClient
    public static var everyTarget: Key { .every }
}

/// A multiplexer of a protocol's targets with no schema: registration and the four ways to send, for code generic
/// over the strategy. Every strategy's class conforms when its schema is ``Targets``:
///
/// ```swift
/// final class TableObservers<Observers: TargetMultiplexing<any TableObserver>>: TableObserver {
///     let observers = Observers()
///     func table(_ table: String, willDisplay cell: Int, forRowAt row: Int) {
///         observers.forEach { $0.table(table, willDisplay: cell, forRowAt: row) }
///     }
/// }
/// let delegate = TableObservers<WeakArrayMultiplexer<Targets<any TableObserver>>>()
/// ```
///
/// Each strategy keeps its own guarantees (<doc:Strategies>).
public protocol TargetMultiplexing<Target>: AnyObject {
    /// The type of a registered target, such as `any TableObserver`.
    associatedtype Target

    /// Creates a multiplexer with no targets.
    init()

    /// Registers `target`, held as the strategy holds targets; registering a registered target does nothing.
    func add(_ target: Target)

    /// Unregisters `target`; unregistering an unknown target does nothing. A delivery in flight still reaches it.
    func remove(_ target: Target)

    /// The number of registered targets (live ones, for the strategies that hold targets weakly).
    var count: Int { get }

    /// Calls `body` with every registered target, in registration order.
    func forEach(_ body: (Target) -> Void)

    /// Asks every registered target, in order and without short-circuit, and answers whether all of them said
    /// `true`; `true` when there is none.
    func askAll(_ question: (Target) -> Bool) -> Bool

    /// Asks the registered targets in order until one gives a non-`nil` answer, which wins; `nil` when none does.
    func askUntilAnswered<Answer>(_ question: (Target) -> Answer?) -> Answer?

    /// Combines the registered targets, in order, as `Sequence.reduce(_:_:)` does.
    func reduce<Result>(_ initialResult: Result, _ next: (Result, Target) -> Result) -> Result
}

extension ExistentialArrayMultiplexer: TargetMultiplexing where Schema: SchemaFree {}
extension ClosureTableMultiplexer: TargetMultiplexing where Schema: SchemaFree {}
extension SelectorDictionaryMultiplexer: TargetMultiplexing where Schema: SchemaFree {}
extension WeakArrayMultiplexer: TargetMultiplexing where Schema: SchemaFree {}
extension LifetimeBoundMultiplexer: TargetMultiplexing where Schema: SchemaFree {}
extension ConcurrentMultiplexer: TargetMultiplexing where Schema: SchemaFree {}

extension _TargetCalling where Schema: SchemaFree {
    /// Calls `body` with every registered target, in registration order.
    @_alwaysEmitIntoClient @inline(__always)
    public func forEach(_ body: (Schema.Target) -> Void) {
        callTargets(Schema.everyTarget, while: { _ in true }, invoking: body)
    }

    /// Asks every registered target, in order and without short-circuit, and answers whether all of them said
    /// `true`; `true` when there is none.
    @_alwaysEmitIntoClient @inline(__always)
    public func askAll(_ question: (Schema.Target) -> Bool) -> Bool {
        var answer = true
        callTargets(
            Schema.everyTarget,
            while: { reply in
                answer = answer && reply
                return true
            }, invoking: question)
        return answer
    }

    /// Asks the registered targets in order until one gives a non-`nil` answer, which wins; `nil` when none does.
    @_alwaysEmitIntoClient @inline(__always)
    public func askUntilAnswered<Answer>(_ question: (Schema.Target) -> Answer?) -> Answer? {
        var answer: Answer?
        callTargets(
            Schema.everyTarget,
            while: { reply in
                answer = reply
                return reply == nil
            }, invoking: question)
        return answer
    }

    /// Combines the registered targets, in order, as `Sequence.reduce(_:_:)` does.
    @_alwaysEmitIntoClient @inline(__always)
    public func reduce<Result>(_ initialResult: Result, _ next: (Result, Schema.Target) -> Result) -> Result {
        var result = initialResult
        forEach { result = next(result, $0) }
        return result
    }
}
