/// A type-erasable view of a ``Message`` descriptor, used where a schema lists all of its messages.
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

    /// A closure that sends the message to `target`, which a forwarding strategy binds at `add`.
    func bound(to target: Schema.Target) -> (Arguments) -> Result

    /// Unpacks dynamically typed arguments, as `forwardInvocation:` would.
    ///
    /// - Throws: ``ForwardingError`` naming the selector and what was expected when the count or a type is wrong.
    func unpack(_ arguments: [Any]) throws(ForwardingError) -> Arguments

    /// The function that forwards this message (``SelectorDictionaryMultiplexer/forward(_:arguments:)``): it unpacks
    /// `arguments`, calls in order the handlers a strategy bound for it (`handlers`, opaque to callers), and replaces
    /// the contents of `answers`, whose storage it may reuse, with one answer per handler (a `nil` answer reads as
    /// `nil`). It throws only ``ForwardingError``: a function type with a typed error needs the Swift 6 runtime.
    var forwarder: (_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) throws -> Void { get }
}

/// ``MessageProtocol/forwarder``'s type.
@usableFromInline
internal typealias ForwarderBody =
    (_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) throws -> Void

extension MessageProtocol {
    /// The general forwarder, for conformances other than ``Message``: each answer is cast at run time to see
    /// whether it is an optional to unwrap. Emitted into the module that declares such a conformance only.
    @_alwaysEmitIntoClient
    public var forwarder: (_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) throws -> Void {
        { arguments, handlers, answers in
            ResponderList<Schema.Target>.forward(
                try unpack(arguments), to: handlers, into: &answers, boxing: flattenOptional as (Result) -> Any?,
                boxedType: Any.self)
        }
    }
}

/// `value`, or the value it wraps when it is a boxed `Optional` (at any depth), so that a `nil` answer reads as `nil`.
@usableFromInline @_alwaysEmitIntoClient
internal func flattenOptional(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.flatMap { flattenOptional($0.value) }
}

/// A descriptor of one message of a delegate protocol: its name and how to send it to one target.
///
/// Declare one per message as an `@inlinable` computed static property of the schema, so that each dispatch can
/// inline the call:
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
    package let body: (Schema.Target, Arguments) -> Result

    /// For a two-argument message, the body taking the arguments apart (`ArgumentPair.swift`); `nil` otherwise,
    /// and where the layout fast paths are off.
    @usableFromInline
    internal let pair: ApartBody<(Schema.Target, Arguments) -> Result>?

    @usableFromInline
    internal let unpacker: (_ arguments: [Any], _ selector: String) throws -> Arguments

    /// Makes the closure ``bound(to:)`` returns, specialized: created where the descriptor's types are concrete.
    @usableFromInline
    internal let binder: (Schema.Target) -> (Arguments) -> Result

    /// Makes ``forwarder``. It captures nothing, so that making a descriptor, at every message, allocates nothing.
    @usableFromInline
    internal let forwarderMaker:
        (
            _ unpacker: @escaping (_ arguments: [Any], _ selector: String) throws -> Arguments,
            _ selector: String
        ) -> ForwarderBody

    /// `forward`'s whole delivery of this message, made where the types are concrete, so that it runs specialized code.
    ///
    /// - Complexity: O(1); each access makes a new closure.
    @_alwaysEmitIntoClient
    public var forwarder: (_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) throws -> Void {
        forwarderMaker(unpacker, key.rawValue)
    }

    @usableFromInline @_alwaysEmitIntoClient
    internal init(
        key: Schema.Key,
        body: @escaping (Schema.Target, Arguments) -> Result,
        binder: @escaping (Schema.Target) -> (Arguments) -> Result,
        pair: ApartBody<(Schema.Target, Arguments) -> Result>? = nil,
        unpacker: @escaping (_ arguments: [Any], _ selector: String) throws -> Arguments,
        forwarderMaker:
            @escaping (
                _ unpacker: @escaping (_ arguments: [Any], _ selector: String) throws -> Arguments,
                _ selector: String
            ) -> ForwarderBody
    ) {
        self.key = key
        self.body = body
        self.pair = pair
        self.binder = binder
        self.unpacker = unpacker
        self.forwarderMaker = forwarderMaker
    }

    /// A descriptor whose forwarder boxes answers as `Boxing` says (``AnswerBoxing``).
    @usableFromInline @_alwaysEmitIntoClient
    internal init<Boxing: AnswerBoxing>(
        key: Schema.Key,
        body: @escaping (Schema.Target, Arguments) -> Result,
        binder: @escaping (Schema.Target) -> (Arguments) -> Result,
        pair: ApartBody<(Schema.Target, Arguments) -> Result>? = nil,
        unpacker: @escaping (_ arguments: [Any], _ selector: String) throws -> Arguments,
        boxing: Boxing.Type
    ) where Boxing.Answer == Result {
        self.init(key: key, body: body, binder: binder, pair: pair, unpacker: unpacker) { unpacker, selector in
            { arguments, handlers, answers in
                ResponderList<Schema.Target>.forward(
                    try unpacker(arguments, selector), to: handlers, into: &answers,
                    boxing: Boxing.box as (Result) -> Any?, boxedType: Boxing.Boxed.self)
            }
        }
    }

    /// Sends the message to one target.
    @_alwaysEmitIntoClient
    @inline(__always)
    public func invoke(_ target: Schema.Target, _ arguments: Arguments) -> Result {
        body(target, arguments)
    }

    /// A closure that sends the message to `target`.
    @_alwaysEmitIntoClient
    public func bound(to target: Schema.Target) -> (Arguments) -> Result {
        binder(target)
    }

    /// This descriptor, with the call also written in bound form, which a forwarded message then calls directly: a
    /// closure that takes the target and returns the closure that `forward` calls. Typed sends do not use it.
    ///
    /// ```swift
    /// .init(.didScroll) { $0.scrollViewDidScroll($1) }
    ///     .withBoundCall { target in { target.scrollViewDidScroll($0) } }
    /// ```
    ///
    /// - Parameter bound: Makes the closure that sends this message to a target, several arguments as one tuple. It
    ///   must make exactly the call the descriptor's body makes.
    @_alwaysEmitIntoClient
    public func withBoundCall(_ bound: @escaping (Schema.Target) -> (Arguments) -> Result) -> Message {
        // A method, not an initializer parameter, so that `bound` is stored as written: where `Arguments == (A, B)`,
        // a closure literal passed to an initializer would take the pair as two values and be stored reabstracted.
        Message(key: key, body: body, binder: bound, pair: pair, unpacker: unpacker, forwarderMaker: forwarderMaker)
    }

    /// Unpacks dynamically typed arguments.
    ///
    /// - Complexity: O(*a*), where *a* is the number of arguments.
    @_alwaysEmitIntoClient
    public func unpack(_ arguments: [Any]) throws(ForwardingError) -> Arguments {
        try ForwardingError.only { try unpacker(arguments, key.rawValue) }
    }
}

// The initializers for optional answers win where they apply, so that `forward` unwraps an optional answer
// without a cast at run time.
extension Message {
    /// Describes a message with no arguments besides the target.
    @_alwaysEmitIntoClient @_disfavoredOverload
    public init(_ key: Schema.Key, _ body: @escaping (Schema.Target) -> Result) where Arguments == Void {
        self.init(key, noArguments: body, boxing: AnswerAsIs<Result>.self)
    }

    /// Describes a message with one argument.
    @_alwaysEmitIntoClient @_disfavoredOverload
    public init(_ key: Schema.Key, _ body: @escaping (Schema.Target, Arguments) -> Result) {
        self.init(key, oneArgument: body, boxing: AnswerAsIs<Result>.self)
    }

    /// Describes a message with two arguments.
    @_alwaysEmitIntoClient @_disfavoredOverload
    public init<A, B>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B) -> Result) where Arguments == (A, B) {
        self.init(key, twoArguments: body, boxing: AnswerAsIs<Result>.self)
    }

    /// Describes a message with three arguments.
    @_alwaysEmitIntoClient @_disfavoredOverload
    public init<A, B, C>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B, C) -> Result)
    where Arguments == (A, B, C) {
        self.init(key, threeArguments: body, boxing: AnswerAsIs<Result>.self)
    }

    /// Describes a message with four arguments.
    @_alwaysEmitIntoClient @_disfavoredOverload
    public init<A, B, C, D>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B, C, D) -> Result)
    where Arguments == (A, B, C, D) {
        self.init(key, fourArguments: body, boxing: AnswerAsIs<Result>.self)
    }

    /// Describes a message with no arguments besides the target and an optional answer, which `forward` unwraps.
    @_alwaysEmitIntoClient
    public init<Wrapped>(_ key: Schema.Key, _ body: @escaping (Schema.Target) -> Result)
    where Arguments == Void, Result == Wrapped? {
        self.init(key, noArguments: body, boxing: Wrapped?.self)
    }

    /// Describes a message with one argument and an optional answer, which `forward` unwraps.
    @_alwaysEmitIntoClient
    public init<Wrapped>(_ key: Schema.Key, _ body: @escaping (Schema.Target, Arguments) -> Result)
    where Result == Wrapped? {
        self.init(key, oneArgument: body, boxing: Wrapped?.self)
    }

    /// Describes a message with two arguments and an optional answer, which `forward` unwraps.
    @_alwaysEmitIntoClient
    public init<A, B, Wrapped>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B) -> Result)
    where Arguments == (A, B), Result == Wrapped? {
        self.init(key, twoArguments: body, boxing: Wrapped?.self)
    }

    /// Describes a message with three arguments and an optional answer, which `forward` unwraps.
    @_alwaysEmitIntoClient
    public init<A, B, C, Wrapped>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B, C) -> Result)
    where Arguments == (A, B, C), Result == Wrapped? {
        self.init(key, threeArguments: body, boxing: Wrapped?.self)
    }

    /// Describes a message with four arguments and an optional answer, which `forward` unwraps.
    @_alwaysEmitIntoClient
    public init<A, B, C, D, Wrapped>(_ key: Schema.Key, _ body: @escaping (Schema.Target, A, B, C, D) -> Result)
    where Arguments == (A, B, C, D), Result == Wrapped? {
        self.init(key, fourArguments: body, boxing: Wrapped?.self)
    }
}

extension Message {
    // The shapes of message, each with the way `forward` boxes its answers.

    @usableFromInline @_alwaysEmitIntoClient
    internal init<Boxing: AnswerBoxing>(
        _ key: Schema.Key, noArguments body: @escaping (Schema.Target) -> Result, boxing: Boxing.Type
    ) where Arguments == Void, Boxing.Answer == Result {
        self.init(
            key: key, body: { target, _ in body(target) }, binder: { target in { _ in body(target) } },
            unpacker: { arguments, selector in
                try checkCount(of: arguments, selector: selector, count: 0) { [] }
            }, boxing: boxing)
    }

    @usableFromInline @_alwaysEmitIntoClient
    internal init<Boxing: AnswerBoxing>(
        _ key: Schema.Key, oneArgument body: @escaping (Schema.Target, Arguments) -> Result, boxing: Boxing.Type
    ) where Boxing.Answer == Result {
        // Wrapped rather than stored as is, so that the stored body takes the target directly, not indirectly.
        self.init(
            key: key, body: { target, arguments in body(target, arguments) },
            binder: { target in { arguments in body(target, arguments) } },
            unpacker: { arguments, selector in
                try checkCount(of: arguments, selector: selector, count: 1) { [Arguments.self] }
                return try argument(0, of: arguments, as: Arguments.self, selector: selector)
            }, boxing: boxing)
    }

    @usableFromInline @_alwaysEmitIntoClient
    internal init<A, B, Boxing: AnswerBoxing>(
        _ key: Schema.Key, twoArguments body: @escaping (Schema.Target, A, B) -> Result, boxing: Boxing.Type
    ) where Arguments == (A, B), Boxing.Answer == Result {
        self.init(
            key: key, body: { target, arguments in body(target, arguments.0, arguments.1) },
            binder: { target in { arguments in body(target, arguments.0, arguments.1) } },
            pair: Message.pairForm(of: body),
            unpacker: { arguments, selector in
                try checkCount(of: arguments, selector: selector, count: 2) { [A.self, B.self] }
                return (
                    try argument(0, of: arguments, as: A.self, selector: selector),
                    try argument(1, of: arguments, as: B.self, selector: selector)
                )
            }, boxing: boxing)
    }

    @usableFromInline @_alwaysEmitIntoClient
    internal init<A, B, C, Boxing: AnswerBoxing>(
        _ key: Schema.Key, threeArguments body: @escaping (Schema.Target, A, B, C) -> Result, boxing: Boxing.Type
    ) where Arguments == (A, B, C), Boxing.Answer == Result {
        self.init(
            key: key, body: { target, arguments in body(target, arguments.0, arguments.1, arguments.2) },
            binder: { target in { arguments in body(target, arguments.0, arguments.1, arguments.2) } },
            pair: Message.apartForm(of: body),
            unpacker: { arguments, selector in
                try checkCount(of: arguments, selector: selector, count: 3) { [A.self, B.self, C.self] }
                return (
                    try argument(0, of: arguments, as: A.self, selector: selector),
                    try argument(1, of: arguments, as: B.self, selector: selector),
                    try argument(2, of: arguments, as: C.self, selector: selector)
                )
            }, boxing: boxing)
    }

    @usableFromInline @_alwaysEmitIntoClient
    internal init<A, B, C, D, Boxing: AnswerBoxing>(
        _ key: Schema.Key, fourArguments body: @escaping (Schema.Target, A, B, C, D) -> Result, boxing: Boxing.Type
    ) where Arguments == (A, B, C, D), Boxing.Answer == Result {
        self.init(
            key: key, body: { target, arguments in body(target, arguments.0, arguments.1, arguments.2, arguments.3) },
            binder: { target in { arguments in body(target, arguments.0, arguments.1, arguments.2, arguments.3) } },
            pair: Message.apartForm(of: body),
            unpacker: { arguments, selector in
                try checkCount(of: arguments, selector: selector, count: 4) {
                    [A.self, B.self, C.self, D.self]
                }
                return (
                    try argument(0, of: arguments, as: A.self, selector: selector),
                    try argument(1, of: arguments, as: B.self, selector: selector),
                    try argument(2, of: arguments, as: C.self, selector: selector),
                    try argument(3, of: arguments, as: D.self, selector: selector)
                )
            }, boxing: boxing)
    }
}
