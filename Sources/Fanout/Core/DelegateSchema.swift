/// A description of a delegate protocol that lets every multiplexer strategy forward it: the protocol's
/// targets, the names of its messages, and one ``Message`` descriptor per message.
///
/// Writing a schema is all a protocol needs to reuse every strategy. For a view-controller lifecycle observer:
///
/// ```swift
/// enum LifecycleSchema: DelegateSchema {
///     typealias Target = any LifecycleObserver
///     typealias Key = LifecycleMessage
///     static var viewDidAppear: Message<Self, Bool, Void> { .init(.viewDidAppear) { $0.viewDidAppear($1) } }
///     static var viewDidDisappear: Message<Self, Bool, Void> { .init(.viewDidDisappear) { $0.viewDidDisappear($1) } }
///     static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
///         visitor.visit(viewDidAppear)
///         visitor.visit(viewDidDisappear)
///     }
/// }
/// ```
///
/// The glue, its pitfalls and the optional bound form: <doc:ReusingForYourProtocol>.
public protocol DelegateSchema {
    /// The type of a registered target, usually a class-constrained existential such as `any ScrollViewDelegate`.
    associatedtype Target

    /// The names of the protocol's messages.
    associatedtype Key: MessageKey

    /// Every message of the protocol, one descriptor per key, for the strategies that bind a target's messages and
    /// for dynamic forwarding. Defaults to the descriptors ``visitMessages(_:)`` visits.
    static var messages: [any MessageProtocol<Self>] { get }

    /// Whether `target` implements the message named `key`, the analog of `respondsToSelector:`; read at `add`.
    static func responds(_ target: Target, to key: Key) -> Bool

    /// The identity of `target`: two registrations with the same identity are the same registration.
    static func identity(of target: Target) -> ObjectIdentifier

    /// Visits every message of the protocol with its types, one descriptor per key (see ``MessageVisitor``): the
    /// schema's one list of its messages, from which ``messages`` is derived. The default visits none.
    static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self
}

extension DelegateSchema {
    /// The descriptors that ``visitMessages(_:)`` visits, in order.
    ///
    /// - Complexity: O(*k*) for *k* messages; Fanout reads it once per schema.
    public static var messages: [any MessageProtocol<Self>] {
        var collector = MessageCollector<Self>()
        visitMessages(&collector)
        return collector.messages
    }

    /// Every target responds to every message unless the schema says otherwise.
    @_alwaysEmitIntoClient
    public static func responds(_ target: Target, to key: Key) -> Bool { true }

    /// The identity of the object that `target` refers to.
    ///
    /// - Precondition: `Target` is a class or a class-constrained existential.
    @_alwaysEmitIntoClient
    public static func identity(of target: Target) -> ObjectIdentifier {
        ObjectIdentifier(target as AnyObject)
    }

    /// A weak `AnyObject` reference to `target`, cast back to `Target` on every load. Fanout does not call it.
    @available(*, deprecated, message: "Fanout no longer calls it: the weak strategies hold targets weakly themselves")
    @_alwaysEmitIntoClient
    public static func weakReference(to target: Target) -> () -> Target? {
        { [weak object = target as AnyObject] in object.flatMap { $0 as? Target } }
    }

    /// The messages that `target` responds to, in O(*k*) for *k* message keys.
    @usableFromInline @_alwaysEmitIntoClient
    package static func respondedMessages(of target: Target) -> KeySet<Key> {
        KeySet { responds(target, to: $0) }
    }

    /// The descriptor of the message whose selector is `selector`.
    ///
    /// - Throws: ``ForwardingError/unrecognizedSelector(_:known:)`` when the protocol has no such message.
    /// - Complexity: O(*k*), where *k* is the number of messages.
    @_alwaysEmitIntoClient
    public static func message(forSelector selector: String) throws(ForwardingError) -> any MessageProtocol<Self> {
        guard let message = messages.first(where: { $0.key.rawValue == selector }) else {
            throw .unrecognizedSelector(selector, known: Key.allCases.map(\.rawValue))
        }
        return message
    }
}
