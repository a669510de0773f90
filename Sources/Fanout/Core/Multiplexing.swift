/// A multiplexer for any delegate protocol described by a ``DelegateSchema``: the generic interface that every
/// dispatch strategy implements.
///
/// A strategy provides registration and one primitive, ``Delivering/deliver(_:_:while:)``; `send`, `askAll` and
/// `askUntilAnswered` are written once, for every ``Delivering`` type.
///
/// Semantics shared by every strategy (checked by one conformance suite):
/// - delivery in registration order, to targets that responded to the message when they were added;
/// - a delivery reaches exactly the targets registered when it began: a target added during a delivery first
///   receives the next message, a target removed during it still receives the message in flight;
/// - callbacks may send further messages through the same multiplexer;
/// - no target is deallocated while one of its own callbacks runs, whatever the callbacks do;
/// - `add` reads the target's `responds(to:)` before changing anything: `responds(to:)` may call the multiplexer.
///
/// The semantics in full, and each strategy's cost: <doc:Strategies>.
public protocol Multiplexing<Schema>: Delivering {
    /// The delegate protocol this multiplexer forwards.
    associatedtype Schema

    /// Creates a multiplexer with no targets.
    init()

    /// Registers `target`, reading `Schema.responds(_:to:)` now, once per message; registering it again does nothing.
    func add(_ target: Schema.Target)

    /// Unregisters `target`; unregistering an unknown target does nothing. A dispatch in flight still delivers to it.
    func remove(_ target: Schema.Target)

    /// Called when the set of messages that some registered target responds to changes: on `add` and `remove`,
    /// when a target bound to an owner leaves with it, and when `count` drops weakly held targets found gone. A
    /// host that reads its delegate's `responds(to:)` once, when the delegate is assigned (UIKit's views do),
    /// reads it again here. `nil`, the default, to be told nothing.
    ///
    /// Runs synchronously on the thread that made the change, once it is complete; a change made while a dispatch
    /// is in flight is announced once, after the outermost dispatch returns. ``ConcurrentMultiplexer`` announces
    /// at once, on the writer's thread. The rules in full: <doc:Strategies>, "Hosts that cache responds-to".
    var respondersDidChange: (() -> Void)? { get set }
}

/// What every multiplexer offers, mutable or not: the registered targets' count, whether any responds, and delivery.
/// ``Multiplexing`` adds registration; `StaticComposition` (`FanoutStatic`), whose targets are fixed, has only this.
public protocol Delivering<Schema>: AnyObject {
    /// The delegate protocol this multiplexer forwards.
    associatedtype Schema: DelegateSchema

    /// The number of registered targets.
    var count: Int { get }

    /// Whether any registered target responds to the message named `key`.
    func responds(to key: Schema.Key) -> Bool

    /// Sends `message` to each registered target that responds to it, in registration order, for as long as
    /// `shouldContinue` returns `true` for the answers.
    func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    )

    /// Sends `message`, a message of two arguments, as ``deliver(_:_:while:)`` does, with the arguments apart, so
    /// that a reference among them is not retained for a tuple. The default, which a `StaticComposition` takes,
    /// builds the tuple.
    func deliver<First, Second, Result>(
        _ message: Message<Schema, (First, Second), Result>, _ first: First, _ second: Second,
        while shouldContinue: (Result) -> Bool
    )

    /// ``deliver(_:_:_:while:)`` for a message of three arguments.
    func deliver<A, B, C, Result>(
        _ message: Message<Schema, (A, B, C), Result>, _ a: A, _ b: B, _ c: C, while shouldContinue: (Result) -> Bool
    )

    /// ``deliver(_:_:_:while:)`` for a message of four arguments.
    func deliver<A, B, C, D, Result>(
        _ message: Message<Schema, (A, B, C, D), Result>, _ a: A, _ b: B, _ c: C, _ d: D,
        while shouldContinue: (Result) -> Bool
    )
}

extension Delivering {
    /// Whether any registered target responds to the message whose Objective-C selector is `selector`, such as
    /// `"scrollViewDidScroll:"`; `false` for a selector the protocol does not have. What an `NSObject` set as a
    /// delegate answers from `responds(to:)`.
    ///
    /// - Complexity: O(*s*) for a selector of *s* characters, plus ``responds(to:)``.
    @_alwaysEmitIntoClient
    public func responds(toSelector selector: String) -> Bool {
        guard let key = SchemaInfo<Schema>.shared.key(forSelector: selector) else { return false }
        return responds(to: key)
    }

    /// Sends a message that has no answer to every responding target.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for this message.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func send<Arguments>(_ message: Message<Schema, Arguments, Void>, _ arguments: Arguments) {
        deliver(message, arguments) { _ in true }
    }

    /// ``deliver(_:_:while:)`` with the two arguments made a tuple: the default of ``deliver(_:_:_:while:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func deliver<First, Second, Result>(
        _ message: Message<Schema, (First, Second), Result>, _ first: First, _ second: Second,
        while shouldContinue: (Result) -> Bool
    ) {
        deliver(message, (first, second), while: shouldContinue)
    }

    /// ``deliver(_:_:while:)`` with the three arguments made a tuple: the default of ``deliver(_:_:_:_:while:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func deliver<A, B, C, Result>(
        _ message: Message<Schema, (A, B, C), Result>, _ a: A, _ b: B, _ c: C, while shouldContinue: (Result) -> Bool
    ) {
        deliver(message, (a, b, c), while: shouldContinue)
    }

    /// ``deliver(_:_:while:)`` with the four arguments made a tuple: the default of ``deliver(_:_:_:_:_:while:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func deliver<A, B, C, D, Result>(
        _ message: Message<Schema, (A, B, C, D), Result>, _ a: A, _ b: B, _ c: C, _ d: D,
        while shouldContinue: (Result) -> Bool
    ) {
        deliver(message, (a, b, c, d), while: shouldContinue)
    }

    /// ``send(_:_:)`` for a message of three arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func send<A, B, C>(_ message: Message<Schema, (A, B, C), Void>, _ a: A, _ b: B, _ c: C) {
        deliver(message, a, b, c) { _ in true }
    }

    /// ``send(_:_:)`` for a message of four arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func send<A, B, C, D>(_ message: Message<Schema, (A, B, C, D), Void>, _ a: A, _ b: B, _ c: C, _ d: D) {
        deliver(message, a, b, c, d) { _ in true }
    }

    /// ``askAll(_:_:)`` for a message of three arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askAll<A, B, C>(_ message: Message<Schema, (A, B, C), Bool>, _ a: A, _ b: B, _ c: C) -> Bool {
        allSaidTrue { deliver(message, a, b, c, while: $0) }
    }

    /// ``askAll(_:_:)`` for a message of four arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askAll<A, B, C, D>(
        _ message: Message<Schema, (A, B, C, D), Bool>, _ a: A, _ b: B, _ c: C, _ d: D
    ) -> Bool {
        allSaidTrue { deliver(message, a, b, c, d, while: $0) }
    }

    /// ``askUntilAnswered(_:_:)`` for a message of three arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askUntilAnswered<A, B, C, Answer>(
        _ message: Message<Schema, (A, B, C), Answer?>, _ a: A, _ b: B, _ c: C
    ) -> Answer? {
        firstAnswer { deliver(message, a, b, c, while: $0) }
    }

    /// ``askUntilAnswered(_:_:)`` for a message of four arguments, the arguments apart.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askUntilAnswered<A, B, C, D, Answer>(
        _ message: Message<Schema, (A, B, C, D), Answer?>, _ a: A, _ b: B, _ c: C, _ d: D
    ) -> Answer? {
        firstAnswer { deliver(message, a, b, c, d, while: $0) }
    }

    /// ``send(_:_:)`` for a message of two arguments, the arguments apart as the delegate method receives them.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func send<First, Second>(_ message: Message<Schema, (First, Second), Void>, _ first: First, _ second: Second)
    {
        deliver(message, first, second) { _ in true }
    }

    /// ``askAll(_:_:)`` for a message of two arguments, the arguments apart, at the same cost.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askAll<First, Second>(
        _ message: Message<Schema, (First, Second), Bool>, _ first: First, _ second: Second
    ) -> Bool {
        allSaidTrue { deliver(message, first, second, while: $0) }
    }

    /// ``askUntilAnswered(_:_:)`` for a message of two arguments, the arguments apart, at the same cost.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askUntilAnswered<First, Second, Answer>(
        _ message: Message<Schema, (First, Second), Answer?>, _ first: First, _ second: Second
    ) -> Answer? {
        firstAnswer { deliver(message, first, second, while: $0) }
    }

    /// Asks every responding target, in order and without short-circuit, and answers whether all of them said
    /// `true`; `true` when none responds.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for this message.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askAll<Arguments>(_ message: Message<Schema, Arguments, Bool>, _ arguments: Arguments) -> Bool {
        // Written out, not through `allSaidTrue`: the gate's counts of the static composition's `askAll` are this
        // form's.
        var answer = true
        deliver(message, arguments) { reply in
            answer = answer && reply
            return true
        }
        return answer
    }

    /// Asks responding targets in order until one gives a non-`nil` answer, which wins; later targets are not
    /// asked. `nil` when none answers.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for this message.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func askUntilAnswered<Arguments, Answer>(
        _ message: Message<Schema, Arguments, Answer?>, _ arguments: Arguments
    ) -> Answer? {
        var answer: Answer?
        deliver(message, arguments) { reply in
            answer = reply
            return reply == nil
        }
        return answer
    }
}

extension Delivering {
    /// Whether every answer `deliver` hands its condition is `true` (or there is none); it never stops it.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func allSaidTrue(_ deliver: ((Bool) -> Bool) -> Void) -> Bool {
        var answer = true
        deliver { reply in
            answer = answer && reply
            return true
        }
        return answer
    }

    /// The first non-`nil` answer `deliver` hands its condition, which then stops it; `nil` when there is none.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func firstAnswer<Answer>(_ deliver: ((Answer?) -> Bool) -> Void) -> Answer? {
        var answer: Answer?
        deliver { reply in
            answer = reply
            return reply == nil
        }
        return answer
    }
}
