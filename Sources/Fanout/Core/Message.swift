/// A type-erasable view of a ``Message`` descriptor, used where a schema lists
/// all of its messages.
public protocol MessageProtocol<Schema> {
    /// The delegate protocol this message belongs to.
    associatedtype Schema: DelegateSchema
    /// The message's arguments: a single value, a tuple, or `Void`.
    associatedtype Arguments
    /// What a target answers.
    associatedtype Result

    /// The message's name.
    var key: Schema.Key { get }

    /// Sends the message to one target.
    func invoke(_ target: Schema.Target, _ arguments: Arguments) -> Result

    /// A closure that sends the message to `target`: what a closure table
    /// stores. Made where the descriptor's types are concrete, so calling it
    /// runs specialized code.
    func bound(to target: Schema.Target) -> (Arguments) -> Result

    /// Unpacks dynamically typed arguments, as `forwardInvocation:` would.
    ///
    /// - Throws: ``ForwardingError`` naming the selector and what was expected
    ///   when the count or a type is wrong.
    func unpack(_ arguments: [Any]) throws(ForwardingError) -> Arguments
}

/// A descriptor of one message of a delegate protocol: its name and how to
/// send it to one target.
///
/// A descriptor is the one line of glue a protocol writes per message. Declare
/// it as an `@inlinable` computed static property of the schema so that the
/// optimizer sees the call and dispatch through it costs nothing extra:
///
/// ```swift
/// @inlinable static var didScroll: Message<Self, ScrollView, Void> {
///     .init(.didScroll) { $0.scrollViewDidScroll($1) }
/// }
/// ```
@frozen
public struct Message<Schema: DelegateSchema, Arguments, Result>: MessageProtocol {
    /// The message's name.
    public let key: Schema.Key

    @usableFromInline
    internal let body: (Schema.Target, Arguments) -> Result

    @usableFromInline
    internal let unpacker: (_ arguments: [Any], _ selector: String) throws(ForwardingError) -> Arguments

    /// Makes the closure that sends the message to one target. Created with
    /// the descriptor, where its types are concrete, so that the closures a
    /// closure table stores run specialized code.
    @usableFromInline
    internal let binder: (Schema.Target) -> (Arguments) -> Result

    @inlinable
    internal init(
        key: Schema.Key,
        body: @escaping (Schema.Target, Arguments) -> Result,
        binder: @escaping (Schema.Target) -> (Arguments) -> Result,
        unpacker: @escaping (_ arguments: [Any], _ selector: String) throws(ForwardingError) -> Arguments
    ) {
        self.key = key
        self.body = body
        self.binder = binder
        self.unpacker = unpacker
    }

    /// Sends the message to one target.
    ///
    /// - Complexity: O(1) plus the target's own work.
    @inlinable
    @inline(__always)
    public func invoke(_ target: Schema.Target, _ arguments: Arguments) -> Result {
        body(target, arguments)
    }

    /// A closure that sends the message to `target`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func bound(to target: Schema.Target) -> (Arguments) -> Result {
        binder(target)
    }

    /// This descriptor, with the call also written in bound form: a closure
    /// literal that takes the target and returns the closure a closure table
    /// stores.
    ///
    /// ```swift
    /// .init(.didScroll) { $0.scrollViewDidScroll($1) }
    ///     .withBoundCall { target in { target.scrollViewDidScroll($0) } }
    /// ```
    ///
    /// The closure strategies (``ClosureTableMultiplexer``,
    /// ``SelectorDictionaryMultiplexer``) store what `bound` returns, so a
    /// delivery calls the target's method directly. Without it they store a
    /// closure that calls the descriptor's body: one more indirect call per
    /// delivery, 35–72 % more instructions per message (Documentation/Findings.md, 13). A
    /// message with several arguments takes them as one tuple:
    /// `{ target in { target.scrollViewDidEndDragging($0.0, willDecelerate: $0.1) } }`.
    ///
    /// - Parameter bound: Makes the closure that sends this message to a
    ///   target. It must make exactly the call the descriptor's body makes.
    /// - Complexity: O(1).
    @inlinable
    public func withBoundCall(_ bound: @escaping (Schema.Target) -> (Arguments) -> Result) -> Message {
        // A method of the unconstrained type, not an initializer parameter:
        // in the two-argument initializer, where `Arguments == (A, B)`, the
        // literal would take the pair as two values, and storing it would
        // need a reabstraction thunk, one more call per delivery (measured).
        Message(key: key, body: body, binder: bound, unpacker: unpacker)
    }

    /// Unpacks dynamically typed arguments.
    ///
    /// - Complexity: O(*a*), where *a* is the number of arguments.
    @inlinable
    public func unpack(_ arguments: [Any]) throws(ForwardingError) -> Arguments {
        try unpacker(arguments, key.rawValue)
    }
}

extension Message {
    /// Describes a message with no arguments besides the target.
    @inlinable
    public init(_ key: Schema.Key, _ body: @escaping (Schema.Target) -> Result) where Arguments == Void {
        self.init(
            key: key, body: { target, _ in body(target) }, binder: { target in { _ in body(target) } }
        ) { arguments, selector throws(ForwardingError) in
            _ = try ArgumentList(arguments, selector: selector, expecting: [])
        }
    }

    /// Describes a message with one argument.
    @inlinable
    public init(_ key: Schema.Key, _ body: @escaping (Schema.Target, Arguments) -> Result) {
        // Wrapped rather than stored as is: storing `body` directly makes the
        // compiler insert a reabstraction thunk that passes the target
        // indirectly, which costs a retain and a release per delivery.
        self.init(
            key: key, body: { target, arguments in body(target, arguments) },
            binder: { target in { arguments in body(target, arguments) } }
        ) { arguments, selector throws(ForwardingError) in
            let list = try ArgumentList(arguments, selector: selector, expecting: [Arguments.self])
            return try list.value(at: 0, as: Arguments.self)
        }
    }

    /// Describes a message with two arguments.
    @inlinable
    public init<A, B>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B) -> Result) where Arguments == (A, B) {
        self.init(
            key: key, body: { target, arguments in body(target, arguments.0, arguments.1) },
            binder: { target in { arguments in body(target, arguments.0, arguments.1) } }
        ) {
            arguments, selector throws(ForwardingError) in
            let list = try ArgumentList(arguments, selector: selector, expecting: [A.self, B.self])
            return (try list.value(at: 0, as: A.self), try list.value(at: 1, as: B.self))
        }
    }
}
