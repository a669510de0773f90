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
public final class ClosureTableMultiplexer<Schema: DelegateSchema>: ClosureBindingMultiplexer<Schema>, Multiplexing {
    /// One list of closures per message ordinal; `nil` until a target binds it.
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var table = ContiguousArray<ClosureListBase?>(repeating: nil, count: Schema.Key.allCases.count)

    /// Creates a multiplexer with no targets.
    override public init() {}

    override func withSlot(for key: Schema.Key, _ body: (inout ClosureListBase?) -> Void) {
        body(&table[key.ordinal])
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
        beginCall()
        defer { endCall() }
        guard let snapshot = ClosureList<Arguments, Result>.snapshot(of: table[message.key.ordinal]) else { return }
        ClosureList.deliver(arguments, to: snapshot, while: shouldContinue)
    }
}
