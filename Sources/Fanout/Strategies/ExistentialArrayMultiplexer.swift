/// A multiplexer that stores its targets as protocol existentials in one
/// array, each with the set of messages it responds to, and calls them in
/// turn through the protocol's witness table.
///
/// ```swift
/// let multiplexer = ExistentialArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(zoomBehavior)
/// scrollView.delegate = multiplexer
/// ```
///
/// Every dispatch visits every target and skips those whose mask lacks the
/// message, so sparse responders still cost one mask test per target.
public final class ExistentialArrayMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema>, Multiplexing {
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (see the README's findings on `swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline
    internal var registrations = IdentifiedList<StrongRegistration<Schema>>()

    /// Creates a multiplexer with no targets.
    override public init() {}

    /// Registers `target` strongly; registering it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        let id = Schema.identity(of: target)
        guard let messages = responsesForAdding(target, id: id), registry.insert(id: id, messages: messages) else {
            return
        }
        registrations.append(StrongRegistration(target: target, messages: messages), for: id)
    }

    /// Unregisters `target`, releasing the multiplexer's reference to it.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    public func remove(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        guard let (id, _) = registry.remove(target) else { return }
        registrations.remove(id)
    }

    /// Calls every registered target that responds to `message`, in order.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets (responding or not).
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        beginCall()
        defer { endCall() }
        StrongRegistration.deliver(message, arguments, to: registrations.entries, while: shouldContinue)
    }
}
