/// A multiplexer that keys its handlers by selector, the Swift analog of Objective-C method lookup, and forwards
/// messages named at run time like an `NSInvocation`, with boxed arguments.
///
/// ```swift
/// let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)
/// let answers = try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])
/// ```
///
/// Every dispatch looks the message's selector up in a dictionary to find its handlers: a typed list of its
/// responders, as ``ClosureTableMultiplexer`` keeps per message, each with a closure bound to it for `forward`. A
/// typed dispatch costs one dictionary lookup more than a closure table, hashing no characters, and boxes nothing:
/// only ``SelectorDictionaryMultiplexer/forward(_:arguments:)`` does. Targets are held strongly. Single-threaded.
public final class SelectorDictionaryMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreadedStrategy {
    /// Each message's list, the core's, by selector, for typed dispatches; unretained: the core owns them. Dispatch
    /// reads a list from it in one instantaneous read: no dynamic exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline
    internal var handlers = [MessageSelector: Unmanaged<AnyResponderList>]()

    /// Every message's selector, by ordinal, hashed once (``MessageSelector``).
    @usableFromInline
    internal let selectors = ContiguousArray(Schema.Key.allCases.map { MessageSelector($0.rawValue) })

    /// The schema's selector ordinals and forwarders, shared by its multiplexers; unretained: it is never freed.
    internal let schemaInfo = Unmanaged.passUnretained(SchemaInfo<Schema>.shared)

    /// The answers array `forward` returned last, whose storage the next call reuses once the caller lets go of it.
    @exclusivity(unchecked)
    internal var answersBuffer: [Any?] = []

    #if !FANOUT_CHECK_EXCLUSIVITY  // its lists read by dispatches and `forward`: see SingleThreadedCore
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var core = SingleThreadedCore<Schema, Void>(listPerMessage: true)

    public var respondersDidChange: (() -> Void)?

    public init() {}

    /// Registers `target`, binding a handler for each message it responds to.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        bind(target, forwarding: true) { ordinal, list in handlers[selectors[ordinal]] = .passUnretained(list) }
    }

    /// Unregisters `target`, releasing its handlers.
    ///
    /// - Complexity: O(*n*·*k*).
    public func remove(_ target: Schema.Target) { unbind(target) }

    public var count: Int { registeredCount }

    public func responds(to key: Schema.Key) -> Bool { anyResponds(to: key) }

    /// This strategy's delivery (``_TargetCalling``), through the list found by the message's selector.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<SelectorDictionaryMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        let list = storage._withUnsafeGuaranteedRef { $0.handlers(for: key) }
        storage.dispatch(pinning: list.map(ResponderList<Schema.Target>.typed)) { handlers, index in
            shouldContinue(lend(&handlers[index].target, to: invoke))
        }
    }

    /// The handlers of the message named `key`: one dictionary probe on average, hashing no characters.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func handlers(for key: Schema.Key) -> Unmanaged<AnyResponderList>? {
        handlers[selectors[key.caseIndex]]
    }

    /// Forwards the message whose Objective-C selector is `selector`, such as `"scrollViewDidScroll:"`, with
    /// `arguments` in order, to every target that responds to it, in registration order, and returns their answers
    /// (`()` for a message without an answer), one per responding target, not combined.
    ///
    /// - Throws: ``ForwardingError`` naming the selector and what was expected, when the protocol has no such
    ///   message or the arguments do not match.
    /// - Complexity: O(*s* + *a* + *r*) for a selector of *s* characters, *a* arguments and *r* responding
    ///   targets: one hash and one probe, whatever the number of messages.
    public func forward(_ selector: String, arguments: [Any]) throws(ForwardingError) -> [Any?] {
        core.beginCall(of: self)
        defer { core.endCall() }
        // The list's pin marks the dispatch in flight; its end after a change or a flag leaves this multiplexer's
        // announcement waiting, and the last list's end announces it.
        defer { if _slowPath(core.deferredAnnouncement != nil) { dispatchesEnded() } }
        guard let ordinal = schemaInfo._withUnsafeGuaranteedRef({ $0.ordinals.ordinal(of: selector) }) else {
            throw .unrecognizedSelector(selector, known: schemaInfo.takeUnretainedValue().ordinals.names)
        }
        // Taken out for the call, so that a nested `forward` makes its own answers array.
        var answers: [Any?] = []
        swap(&answers, &answersBuffer)
        // Neither the forwarder nor the handlers are retained for the call: a schema's forwarders are never freed, the
        // caller keeps this storage alive until `forward` returns, and a handler list stays in the core's lists for the
        // multiplexer's lifetime (`unbind` empties a list, never drops it), even if a callback lets go of the multiplexer.
        let failure = schemaInfo._withUnsafeGuaranteedRef { $0.forwarders[ordinal] }._withUnsafeGuaranteedRef {
            $0.forward(arguments, to: core.lists[ordinal].map(Unmanaged.passUnretained), into: &answers)
        }
        answersBuffer = answers
        if let failure { throw failure }
        return answers
    }
}
