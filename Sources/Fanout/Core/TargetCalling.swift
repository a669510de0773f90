/// One of Fanout's strategies: a multiplexer whose delivery calls its targets one by one, from which
/// ``Delivering``'s deliveries follow. Public only because those deliveries are; a client writes no conformance.
public protocol _TargetCalling: Multiplexing {
    /// The strategy's delivery: calls, with `invoke`, every registered target that responds to the message named
    /// `key`, in registration order, while `shouldContinue` accepts the answers.
    ///
    /// `multiplexer` is unretained: the caller holds it for the whole call, and the delivery borrows it for each
    /// read, so that nothing retains it while the targets run. What it pins (or, for `concurrent`, the snapshot it
    /// reads) keeps the targets alive.
    static func _deliver<Result>(
        _ key: Schema.Key, in multiplexer: Unmanaged<Self>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result)
}

extension _TargetCalling {
    /// Sends `message` to each registered target that responds to it, in registration order, for as long as
    /// `shouldContinue` accepts the answers.
    @_alwaysEmitIntoClient @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        callTargets(message.key, while: shouldContinue) {
            message.body($0, arguments)
        }
    }

    /// Sends a message of two arguments as ``deliver(_:_:while:)`` does, with the arguments apart
    /// (`ArgumentPair.swift`); a descriptor without a two-argument body, and code generic over the schema, take the
    /// tuple, built once.
    @_alwaysEmitIntoClient @inline(__always)
    public func deliver<First, Second, Result>(
        _ message: Message<Schema, (First, Second), Result>, _ first: First, _ second: Second,
        while shouldContinue: (Result) -> Bool
    ) {
        guard _isConcrete(Schema.self), let body = message.pairBody() as ((Schema.Target, First, Second) -> Result)?
        else {
            return deliver(message, (first, second), while: shouldContinue)
        }
        callTargets(message.key, while: shouldContinue) { body($0, first, second) }
    }

    /// Sends a message of three arguments as ``deliver(_:_:while:)`` does, with the arguments apart.
    @_alwaysEmitIntoClient @inline(__always)
    public func deliver<A, B, C, Result>(
        _ message: Message<Schema, (A, B, C), Result>, _ a: A, _ b: B, _ c: C, while shouldContinue: (Result) -> Bool
    ) {
        guard _isConcrete(Schema.self), let body = message.apartBody() as ((Schema.Target, A, B, C) -> Result)? else {
            return deliver(message, (a, b, c), while: shouldContinue)
        }
        callTargets(message.key, while: shouldContinue) { body($0, a, b, c) }
    }

    /// Sends a message of four arguments as ``deliver(_:_:while:)`` does, with the arguments apart.
    @_alwaysEmitIntoClient @inline(__always)
    public func deliver<A, B, C, D, Result>(
        _ message: Message<Schema, (A, B, C, D), Result>, _ a: A, _ b: B, _ c: C, _ d: D,
        while shouldContinue: (Result) -> Bool
    ) {
        guard _isConcrete(Schema.self), let body = message.apartBody() as ((Schema.Target, A, B, C, D) -> Result)?
        else {
            return deliver(message, (a, b, c, d), while: shouldContinue)
        }
        callTargets(message.key, while: shouldContinue) { body($0, a, b, c, d) }
    }
}

extension _TargetCalling {
    /// The strategy's delivery: inlined where the schema is concrete, as in a client's glue, and called out of line
    /// in code generic over it (this module's witnesses of ``Delivering``). Both branches deliver alike.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func callTargets<Result>(
        _ key: Schema.Key, while shouldContinue: (Result) -> Bool, invoking invoke: (Schema.Target) -> Result
    ) {
        if _isConcrete(Schema.self) {
            Self._deliver(key, in: .passUnretained(self), while: shouldContinue, invoking: invoke)
        } else {
            Self.deliverOutOfLine(key, in: .passUnretained(self), while: shouldContinue, invoking: invoke)
        }
    }

    /// ``_deliver(_:in:while:invoking:)``, never inlined: the one copy generic code calls.
    @usableFromInline @inline(never)
    internal static func deliverOutOfLine<Result>(
        _ key: Schema.Key, in multiplexer: Unmanaged<Self>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        _deliver(key, in: multiplexer, while: shouldContinue, invoking: invoke)
    }
}
