/// The elements of a ``StaticComposition``: a type-level list of the
/// behaviours' concrete types, built left to right as nested pairs
/// (`StaticPair<StaticPair<StaticEnd<S>, A>, B>`), so that a delivery to
/// each element is a direct call the optimizer can inline.
public protocol StaticElements<Schema> {
    associatedtype Schema: DelegateSchema

    /// The number of elements.
    var count: Int { get }

    /// Whether any element responds to `key`.
    func responds(to key: Schema.Key) -> Bool

    /// Sends `message` to every element that responds to it, in order, while
    /// `shouldContinue` accepts the answers.
    ///
    /// - Returns: `false` when `shouldContinue` stopped the delivery.
    func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool
}

/// The empty list.
@frozen
public struct StaticEnd<Schema: DelegateSchema>: StaticElements {
    @inlinable
    public init() {}

    @inlinable
    public var count: Int { 0 }

    @inlinable
    public func responds(to key: Schema.Key) -> Bool { false }

    @inlinable @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool { true }
}

/// The elements of `Prefix`, then `last`, held strongly.
///
/// `last`'s `responds(to:)` is read once, when the pair is made (the analog
/// of `add`); an element that is itself a multiplexer, static or dynamic, is
/// sent every message and filters on its own, since its answer can change.
@frozen
public struct StaticPair<Prefix: StaticElements, Last: AnyObject>: StaticElements {
    public typealias Schema = Prefix.Schema

    public let prefix: Prefix
    public let last: Last
    @usableFromInline
    internal let messages: MessageSet<Schema.Key>
    /// Whether `last` is a multiplexer, whose `responds(to:)` can change.
    @usableFromInline
    internal let isMultiplexer: Bool

    /// `prefix`, then `last`.
    ///
    /// - Precondition: `last` is a `Schema.Target` (checked here, once).
    @inlinable
    public init(_ prefix: Prefix, _ last: Last) {
        guard let target = last as? Schema.Target else {
            preconditionFailure("\(Last.self) is not a \(Schema.Target.self)")
        }
        self.prefix = prefix
        self.last = last
        isMultiplexer = last is any Delivering
        messages = isMultiplexer ? MessageSet { _ in true } : Schema.respondedMessages(of: target)
    }

    @inlinable
    public var count: Int { prefix.count + 1 }

    @inlinable
    public func responds(to key: Schema.Key) -> Bool {
        prefix.responds(to: key)
            || (messages.contains(key) && (!isMultiplexer || Schema.responds(last as! Schema.Target, to: key)))
    }

    @inlinable
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool {
        guard prefix.deliver(message, arguments, while: shouldContinue) else { return false }
        guard messages.contains(message.key) else { return true }
        // A cast the optimizer removes once `Last` is concrete: the element is
        // called directly, not through the protocol.
        // Called without a retain: the element is a `let` of this value, which
        // the caller keeps alive for the duration of the call (a group's
        // elements are a `let` of the group, which its caller keeps alive).
        let answer = Unmanaged.passUnretained(last)._withUnsafeGuaranteedRef {
            message.invoke($0 as! Schema.Target, arguments)
        }
        return shouldContinue(answer)
    }
}

/// Builds a ``StaticComposition``'s elements from a list of behaviours:
///
/// ```swift
/// let group = ScrollViewSchema.compose {
///     pullToRefresh
///     parallaxHeader
///     analytics
/// }
/// ```
@resultBuilder
public enum StaticElementsBuilder<Schema: DelegateSchema> {
    @inlinable
    public static func buildPartialBlock<First: AnyObject>(first: First) -> StaticPair<StaticEnd<Schema>, First> {
        StaticPair(StaticEnd(), first)
    }

    @inlinable
    public static func buildPartialBlock<Prefix: StaticElements, Next: AnyObject>(
        accumulated: Prefix, next: Next
    ) -> StaticPair<Prefix, Next> where Prefix.Schema == Schema {
        StaticPair(accumulated, next)
    }
}
