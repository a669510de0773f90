/// The description of a protocol's targets with no schema: a strategy over `Targets<any P>` holds targets of type
/// `any P` and calls each of them, in registration order, with whatever the caller writes:
///
/// ```swift
/// let observers = ExistentialArrayMultiplexer<Targets<any TableObserver>>()
/// observers.forEach { $0.tableView(table, willDisplay: cell, forRowAt: indexPath) }
/// ```
///
/// The same classes and guarantees as with a ``DelegateSchema``. What needs a key per message needs a schema:
/// `responds(to:)` per message, `closureTable`'s per-message lists, forwarding by name.
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

extension _TargetCalling {
    /// Calls `body` with every registered target, in registration order.
    ///
    /// - Complexity: O(*n*) in the targets.
    @_alwaysEmitIntoClient @inline(__always)
    public func forEach<Target>(_ body: (Target) -> Void) where Schema == Targets<Target> {
        Self._deliver(.every, in: .passUnretained(self), while: { _ in true }, invoking: body)
    }

    /// Asks every registered target, in order and without short-circuit, and answers whether all of them said
    /// `true`; `true` when there is none.
    ///
    /// - Complexity: O(*n*) in the targets.
    @_alwaysEmitIntoClient @inline(__always)
    public func askAll<Target>(_ question: (Target) -> Bool) -> Bool where Schema == Targets<Target> {
        var answer = true
        Self._deliver(
            .every, in: .passUnretained(self),
            while: { reply in
                answer = answer && reply
                return true
            }, invoking: question)
        return answer
    }

    /// Asks the registered targets in order until one gives a non-`nil` answer, which wins; `nil` when none does.
    ///
    /// - Complexity: O(*n*) in the targets.
    @_alwaysEmitIntoClient @inline(__always)
    public func askUntilAnswered<Target, Answer>(_ question: (Target) -> Answer?) -> Answer?
    where Schema == Targets<Target> {
        var answer: Answer?
        Self._deliver(
            .every, in: .passUnretained(self),
            while: { reply in
                answer = reply
                return reply == nil
            }, invoking: question)
        return answer
    }

    /// Combines the registered targets, in order, as `Sequence.reduce(_:_:)` does.
    ///
    /// - Complexity: O(*n*) in the targets.
    @_alwaysEmitIntoClient @inline(__always)
    public func reduce<Target, Result>(_ initialResult: Result, _ next: (Result, Target) -> Result) -> Result
    where Schema == Targets<Target> {
        var result = initialResult
        forEach { result = next(result, $0) }
        return result
    }
}
