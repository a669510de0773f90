/// A multiplexer that keys its handlers by selector string, the Swift analog
/// of Objective-C method lookup plus `NSInvocation`: dispatch hashes the
/// selector, finds the handlers, and invokes each with the arguments boxed
/// as `Any`, unboxing the answer.
///
/// It is also the one strategy that forwards messages named at run time:
///
/// ```swift
/// let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)
/// let answers = try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])
/// ```
public final class SelectorDictionaryMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema>, Multiplexing {
    /// A bound message: takes the boxed arguments, returns the boxed answer.
    @usableFromInline
    internal typealias Handler = (Any) -> Any

    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var handlers: [String: IdentifiedList<Handler>] = [:]

    /// Creates a multiplexer with no targets.
    override public init() {}

    /// Registers `target` strongly (its handlers capture it), binding one
    /// handler under the selector of each message it responds to; registering
    /// it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        guard let (id, messages) = registry.insert(target) else { return }
        for message in Schema.messages where messages.contains(message.key) {
            handlers[message.key.rawValue, default: IdentifiedList()].append(Self.handler(message, target), for: id)
        }
    }

    private static func handler<M: MessageProtocol<Schema>>(_ message: M, _ target: Schema.Target) -> Handler {
        { boxed in message.invoke(target, boxed as! M.Arguments) }
    }

    /// Unregisters `target`, releasing its handlers.
    ///
    /// - Complexity: O(*n*·*k*), where *n* is the number of targets and *k*
    ///   the number of messages it responded to.
    public func remove(_ target: Schema.Target) {
        guard let (id, messages) = registry.remove(target) else { return }
        for key in Schema.Key.allCases where messages.contains(key) {
            handlers[key.rawValue]?.remove(id)
        }
    }

    /// Whether any registered target responds to the message named `selector`;
    /// `false` for a selector the protocol does not have.
    ///
    /// - Complexity: O(*s*), where *s* is the length of the selector (one hash).
    public func responds(toSelector selector: String) -> Bool {
        handlers[selector].map { !$0.isEmpty } ?? false
    }

    /// Looks up the handlers for `message` by selector and invokes each with
    /// the boxed arguments, in registration order.
    ///
    /// - Complexity: O(*s* + *r*), where *s* is the length of the selector and
    ///   *r* the number of targets that respond to `message`.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        guard let snapshot = handlers[message.key.rawValue]?.entries else { return }
        let invocation: Any = arguments
        for entry in snapshot {
            guard shouldContinue(entry.value(invocation) as! Result) else { return }
        }
    }

    /// Forwards a message named at run time to every target that responds to
    /// it, in registration order, and returns their answers (`()` for a
    /// message without an answer).
    ///
    /// Unlike the typed messages, every responding target receives the message:
    /// answers are not combined.
    ///
    /// - Parameters:
    ///   - selector: The Objective-C selector, such as `"scrollViewDidScroll:"`.
    ///   - arguments: The message's arguments, in order.
    /// - Returns: One answer per responding target; empty when none responds.
    /// - Throws: ``ForwardingError`` naming the selector and what was expected,
    ///   when the protocol has no such message or the arguments do not match.
    /// - Complexity: O(*k* + *r*), where *k* is the number of messages and *r*
    ///   the number of targets that respond.
    public func forward(_ selector: String, arguments: [Any]) throws(ForwardingError) -> [Any?] {
        let message = try Schema.message(forSelector: selector)
        let invocation = try Self.box(message, arguments)
        let snapshot = handlers[selector]?.entries ?? []
        return snapshot.map { flattenOptional($0.value(invocation)) }
    }

    private static func box<M: MessageProtocol<Schema>>(_ message: M, _ arguments: [Any]) throws(ForwardingError) -> Any {
        try message.unpack(arguments)
    }
}

/// `value`, or the value it wraps when it is a boxed `Optional`, so that a
/// `nil` answer reads as `nil` in `[Any?]`.
private func flattenOptional(_ value: Any) -> Any? {
    guard let optional = value as? any OptionalProtocol else { return value }
    return optional.wrapped
}

private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrapped: Any? { self.map { flattenOptional($0) } ?? nil }
}
