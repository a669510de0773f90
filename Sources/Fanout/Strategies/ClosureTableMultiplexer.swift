/// A multiplexer that turns each target into closures when it is added, one
/// per message it responds to, kept in a table indexed by message.
///
/// ```swift
/// let multiplexer = ClosureTableMultiplexer<ScrollViewSchema>()
/// multiplexer.add(zoomBehavior)   // binds only the messages it implements
/// ```
///
/// Dispatch indexes the table by the message's ordinal and calls only the
/// closures of targets that respond, so sparse responders cost nothing.
public final class ClosureTableMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema>, Multiplexing {
    /// One list of closures per message ordinal; `nil` until a target binds it.
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var table = ContiguousArray<ClosureListBase?>(repeating: nil, count: Schema.Key.allCases.count)

    /// Creates a multiplexer with no targets.
    override public init() {}

    /// Registers `target` strongly (its closures capture it), binding one
    /// closure for each message it responds to; registering it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        guard let (id, messages) = registry.insert(target) else { return }
        for message in Schema.messages where messages.contains(message.key) {
            bind(message, to: target, id: id)
        }
    }

    private func bind<M: MessageProtocol<Schema>>(_ message: M, to target: Schema.Target, id: ObjectIdentifier) {
        ClosureList.bind(message, to: target, id: id, in: &table[message.key.ordinal])
    }

    /// Unregisters `target`, releasing its closures.
    ///
    /// - Complexity: O(*n*·*k*), where *n* is the number of targets and *k*
    ///   the number of messages it responded to.
    public func remove(_ target: Schema.Target) {
        guard let (id, messages) = registry.remove(target) else { return }
        for key in Schema.Key.allCases where messages.contains(key) {
            table[key.ordinal]?.removeClosure(for: id)
        }
    }

    /// Calls the closures bound for `message`, in registration order.
    ///
    /// - Complexity: O(*r*), where *r* is the number of targets that respond
    ///   to `message`.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        guard let slot = table[message.key.ordinal] else { return }
        ClosureList.deliver(arguments, from: slot, while: shouldContinue)
    }
}
