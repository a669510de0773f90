/// A multiplexer that keeps, for each message, the list of the targets that respond to it, in a table indexed
/// by the message's ordinal.
///
/// ```swift
/// let multiplexer = ClosureTableMultiplexer<ScrollViewSchema>()
/// multiplexer.add(zoomBehavior)   // joins the lists of the messages it implements
/// ```
///
/// A dispatch calls only the targets that respond, each through the message's descriptor, so sparse responders
/// cost nothing. It pins the message's list (`PinnedArray`), which keeps its targets alive until the dispatch
/// ends, with no reference counted. Targets are held strongly. Single-threaded.
public final class ClosureTableMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreadedStrategy {
    #if !FANOUT_CHECK_EXCLUSIVITY  // its lists read by dispatches: see SingleThreadedCore
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var core = SingleThreadedCore<Schema, Void>(listPerMessage: true)

    public var respondersDidChange: (() -> Void)?

    public init() {}

    /// Registers `target` in the list of each message it responds to.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) { bind(target, forwarding: false, listMade: { _, _ in }) }

    /// Unregisters `target`, taking it out of its lists.
    ///
    /// - Complexity: O(*n*·*k*).
    public func remove(_ target: Schema.Target) { unbind(target) }

    public var count: Int { registeredCount }

    public func responds(to key: Schema.Key) -> Bool { anyResponds(to: key) }

    /// This strategy's delivery (``_TargetCalling``), through the list of the message named `key`.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<ClosureTableMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        let list = storage._withUnsafeGuaranteedRef { $0.core.lists[key.caseIndex] }.map(Unmanaged.passUnretained)
        storage.dispatch(pinning: list.map(ResponderList<Schema.Target>.typed)) { handlers, index in
            shouldContinue(lend(&handlers[index].target, to: invoke))
        }
    }
}
