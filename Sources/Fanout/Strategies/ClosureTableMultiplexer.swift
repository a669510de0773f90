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
public final class ClosureTableMultiplexer<Schema: DelegateSchema>: _TargetCalling, ResponderListStorage {
    /// One list per message ordinal, `nil` until a target responding to the message is added. Dispatch reads a list
    /// from it, unretained, in one instantaneous read, so it needs no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline
    internal var slots = ContiguousArray<AnyResponderList?>(repeating: nil, count: Schema.Key.allCases.count)

    @usableFromInline
    internal var table = RegistrationTable<Schema, Void>()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    public var respondersDidChange: (() -> Void)?

    @exclusivity(unchecked) @usableFromInline internal var deferredAnnouncement: UInt64?

    @usableFromInline
    func forEachList(_ body: (AnyResponderList) -> Void) {
        for case let list? in slots { body(list) }
    }

    public init() {}

    /// No forwarding, so no closure is bound: a dispatch calls each target through the descriptor.
    @usableFromInline
    static var forwards: Bool { false }

    @usableFromInline
    func withSlot(for key: Schema.Key, _ body: (inout AnyResponderList?) -> Void) {
        body(&slots[key.caseIndex])
    }

    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func list(for key: Schema.Key) -> Unmanaged<AnyResponderList>? {
        slots[key.caseIndex].map(Unmanaged.passUnretained)
    }

    /// Registers `target` in the list of each message it responds to.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) { bind(target) }

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
    ) { storage.deliver(key, while: shouldContinue, invoking: invoke) }
}
