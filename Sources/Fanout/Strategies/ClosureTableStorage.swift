/// A multiplexer that turns each target into closures when it is added, one
/// per message it responds to, kept in a table indexed by message.
///
/// ```swift
/// let multiplexer = ClosureTableMultiplexer<ScrollViewSchema>()
/// multiplexer.add(zoomBehavior)   // binds only the messages it implements
/// ```
///
/// See ``ClosureTableStorage``.
public typealias ClosureTableMultiplexer<Schema: DelegateSchema> = Multiplexer<ClosureTableStorage<Schema>>

/// The storage of ``ClosureTableMultiplexer``: one list of closures per
/// message, indexed by the message's ordinal, each closure calling one target
/// (which it captures, so targets are held strongly).
///
/// Dispatch indexes the table and calls only the closures of targets that
/// respond, so sparse responders cost nothing. A dispatch pins the message's
/// list (`PinnedArray`), which keeps its closures, and so their targets,
/// alive until the dispatch ends, with no reference counted. Single-threaded.
public final class ClosureTableStorage<Schema: DelegateSchema>: MultiplexerStorage, ClosureListStorage, ClosureBinding, CountedDispatchStorage {
    /// One list of closures per message ordinal; `nil` until a target binds it.
    /// Dispatch reads a list from it, unretained, in one instantaneous read, so
    /// it needs no dynamic exclusivity check (Documentation/WritingAStrategy.md).
    @exclusivity(unchecked) @usableFromInline
    internal var slots = ContiguousArray<ClosureListBase?>(repeating: nil, count: Schema.Key.allCases.count)

    @usableFromInline
    internal var table = RegistrationTable<Schema, Void>()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    var respondingBits: UInt64 { table.respondingBits }

    /// The dispatches in flight.
    @exclusivity(unchecked) @usableFromInline
    internal var dispatches = DispatchCounter()

    internal var announcement = RespondersAnnouncement()

    /// Called when the set of messages some target responds to changes
    /// (``MultiplexerStorage/respondersDidChange``).
    public var respondersDidChange: (() -> Void)? {
        get { announcement.handler }
        set { announcement.handler = newValue }
    }

    /// Announces the change made during the dispatches that just ended.
    @usableFromInline
    internal func dispatchesEnded() { announceDeferred() }

    /// An empty storage.
    public init() {}

    func withSlot(for key: Schema.Key, _ body: (inout ClosureListBase?) -> Void) {
        body(&slots[key.ordinal])
    }

    /// Counts a dispatch in and gives it the list of the message named `key` (``ClosureListStorage``).
    @inlinable @inline(__always)
    internal func enterDispatch(for key: Schema.Key) -> ClosureListBase? {
        dispatches.enter()
        return slots[key.ordinal]
    }

    /// Counts a dispatch out (``ClosureListStorage``).
    @inlinable @inline(__always)
    internal func exitDispatch() { if dispatches.exit() { dispatchesEnded() } }

    /// Registers `target`, binding a closure for each message it responds to.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) { bind(target) }

    /// Unregisters `target`, releasing its closures.
    ///
    /// - Complexity: O(*n*·*k*).
    public func remove(_ target: Schema.Target) { unbind(target) }

    /// The number of registered targets.
    public var count: Int { registeredCount }

    /// Whether any registered target responds to `key`.
    public func responds(to key: Schema.Key) -> Bool { anyResponds(to: key) }

    /// This strategy's delivery (``MultiplexerStorage``): calls the closures bound for `message`, in registration
    /// order.
    ///
    /// - Complexity: O(*r*), where *r* is the number of targets that respond
    ///   to `message`.
    @inlinable @inline(__always)
    public static func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, in storage: Unmanaged<ClosureTableStorage>,
        while shouldContinue: (Result) -> Bool
    ) { storage.deliver(message, arguments, while: shouldContinue) { $0.call($1) } }
}
