/// Visits each message of a schema with its types known: how `StaticComposition` (module `FanoutStatic`) builds a
/// delivery specialized per message. A schema offers it with ``DelegateSchema/visitMessages(_:)``.
public protocol MessageVisitor<Schema> {
    associatedtype Schema: DelegateSchema

    /// Visits one message.
    mutating func visit<Arguments, Result>(_ message: Message<Schema, Arguments, Result>)
}

extension DelegateSchema {
    /// Visits no message. A schema that lists its messages here, one line per message and `@inlinable`, lets a
    /// `StaticComposition` called through the protocol run code specialized for its elements.
    @_alwaysEmitIntoClient
    public static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self {}
}
