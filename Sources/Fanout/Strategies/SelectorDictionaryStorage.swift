/// A multiplexer that keys its handlers by selector, the Swift analog of
/// Objective-C method lookup, and forwards messages named at run time like an
/// `NSInvocation`, with boxed arguments.
///
/// ```swift
/// let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
/// multiplexer.add(behavior)
/// let answers = try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])
/// ```
///
/// See ``SelectorDictionaryStorage``.
public typealias SelectorDictionaryMultiplexer<Schema: DelegateSchema> = Multiplexer<SelectorDictionaryStorage<Schema>>

extension Multiplexer {
    /// Forwards a message named at run time to every target that responds to
    /// it. See ``SelectorDictionaryStorage/forward(_:arguments:)``.
    public func forward<ForwardedSchema>(_ selector: String, arguments: [Any]) throws(ForwardingError) -> [Any?]
    where Storage == SelectorDictionaryStorage<ForwardedSchema> {
        try storage.forward(selector, arguments: arguments)
    }

    /// Whether any registered target responds to the message named `selector`;
    /// `false` for a selector the protocol does not have.
    public func responds<ForwardedSchema>(toSelector selector: String) -> Bool
    where Storage == SelectorDictionaryStorage<ForwardedSchema> {
        storage.responds(toSelector: selector)
    }
}

/// The storage of ``SelectorDictionaryMultiplexer``: every dispatch looks the
/// message's selector up in a dictionary to find the handlers bound for it,
/// then calls them in turn. Targets are held strongly, by their handlers.
///
/// The handlers for one selector are typed closures (a ``ClosureList``), so a
/// typed dispatch boxes nothing: its cost over a closure table is one
/// dictionary lookup per message. Selectors are registered once, as the
/// Objective-C runtime registers them, so no lookup hashes a selector's
/// characters (see ``MessageSelector``). ``forward(_:arguments:)`` alone
/// unpacks `Any` arguments and boxes the answers. Single-threaded.
public final class SelectorDictionaryStorage<Schema: DelegateSchema>: Multiplexing, ClosureBinding {
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check (Documentation/WritingAStrategy.md).
    @exclusivity(unchecked) @usableFromInline
    internal var handlers: [MessageSelector: ClosureListBase] = [:]

    /// Every message's selector, registered once and indexed by ordinal: the
    /// stand-in for the selector references the Objective-C compiler emits,
    /// so that no dispatch hashes a selector's characters.
    @usableFromInline
    internal let selectors = ContiguousArray(Schema.Key.allCases.map { MessageSelector($0.rawValue) })

    @usableFromInline
    internal var table = RegistrationTable<Schema, Void>()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    /// An empty storage.
    public init() {}

    func withSlot(for key: Schema.Key, _ body: (inout ClosureListBase?) -> Void) {
        body(&handlers[selectors[key.ordinal]])
    }

    /// Registers `target`, binding a handler for each message it responds to.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) { bind(target) }

    /// Unregisters `target`, releasing its handlers.
    ///
    /// - Complexity: O(*n*·*k*).
    public func remove(_ target: Schema.Target) { unbind(target) }

    /// The number of registered targets.
    public var count: Int { registeredCount }

    /// Whether any registered target responds to `key`.
    public func responds(to key: Schema.Key) -> Bool { anyResponds(to: key) }

    /// Whether any registered target responds to the message named `selector`;
    /// `false` for a selector the protocol does not have.
    ///
    /// - Complexity: O(*k*), where *k* is the number of messages (the selector
    ///   is compared with each message's).
    public func responds(toSelector selector: String) -> Bool {
        guard let key = Schema.Key(selector: selector) else { return false }
        return responds(to: key)
    }

    /// Looks up the handlers for `message` by its selector and calls them in
    /// registration order.
    ///
    /// - Complexity: O(*r*), where *r* is the number of targets that respond
    ///   to `message` (the lookup is one probe on average).
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        confinement.begin(self)
        defer { confinement.end() }
        guard let snapshot = ClosureList<Arguments, Result>.snapshot(of: handlers(for: message.key)) else { return }
        ClosureList.deliver(arguments, to: snapshot, while: shouldContinue)
    }

    /// The handlers of the message named `key`, found by its registered selector.
    ///
    /// - Complexity: O(1) on average: one dictionary probe, no hashing of the
    ///   selector's characters.
    @inlinable
    @inline(__always)
    internal func handlers(for key: Schema.Key) -> ClosureListBase? {
        handlers[selectors[key.ordinal]]
    }

    /// Forwards a message named at run time to every target that responds to
    /// it, in registration order, and returns their answers (`()` for a
    /// message without an answer).
    ///
    /// Unlike the typed messages, every responding target receives the message:
    /// answers are not combined.
    ///
    /// - Parameters:
    ///   - selector: The Objective-C selector, such as `"scrollViewDidScroll:"`.
    ///   - arguments: The message's arguments, in order.
    /// - Returns: One answer per responding target; empty when none responds.
    /// - Throws: ``ForwardingError`` naming the selector and what was expected,
    ///   when the protocol has no such message or the arguments do not match.
    /// - Complexity: O(*k* + *a* + *r*), where *k* is the number of messages
    ///   (the selector is compared with each), *a* the number of arguments and
    ///   *r* the number of targets that respond.
    public func forward(_ selector: String, arguments: [Any]) throws(ForwardingError) -> [Any?] {
        confinement.begin(self)
        defer { confinement.end() }
        let message = try Schema.message(forSelector: selector)
        // The registered selector, as a typed dispatch uses: the same list
        // whatever the spelling of the lookup, and no hash of `selector`.
        return try Self.invoke(message, with: arguments, on: handlers[selectors[message.key.ordinal]])
    }

    /// Unpacks `arguments` for `message` and calls every handler in `slot`.
    private static func invoke<M: MessageProtocol<Schema>>(
        _ message: M, with arguments: [Any], on slot: ClosureListBase?
    ) throws(ForwardingError) -> [Any?] {
        let unpacked = try message.unpack(arguments)
        guard let snapshot = ClosureList<M.Arguments, M.Result>.snapshot(of: slot) else { return [] }
        var answers: [Any?] = []
        ClosureList.deliver(unpacked, to: snapshot) { answer in
            answers.append(flattenOptional(answer))
            return true
        }
        return answers
    }
}

/// `value`, or the value it wraps when it is a boxed `Optional`, so that a
/// `nil` answer reads as `nil` in `[Any?]`.
private func flattenOptional(_ value: Any) -> Any? {
    guard let optional = value as? any OptionalProtocol else { return value }
    return optional.wrapped
}

private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrapped: Any? { self.map { flattenOptional($0) } ?? nil }
}
