/// Something that visits every message of a schema with its types known:
/// how ``StaticComposition`` builds, once per group, a delivery specialized for
/// each message. A schema offers it with ``DelegateSchema/visitMessages(_:)``.
public protocol MessageVisitor<Schema> {
    associatedtype Schema: DelegateSchema

    /// Visits one message.
    mutating func visit<Arguments, Result>(_ message: Message<Schema, Arguments, Result>)
}

extension DelegateSchema {
    /// Visits every message of the protocol, with its types: one line per
    /// message: the schema's one list of its messages (`messages` is derived from it). The default visits none; a schema
    /// that lists its messages here lets a ``StaticComposition`` called through
    /// the protocol (as a delegate property holds it) run code specialized for
    /// its elements, where the conformance's own witnesses, generic over the
    /// elements, run unspecialized.
    ///
    /// ```swift
    /// @inlinable static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
    ///     visitor.visit(viewDidAppear)
    ///     visitor.visit(viewDidDisappear)
    /// }
    /// ```
    @inlinable
    public static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self {}
}
