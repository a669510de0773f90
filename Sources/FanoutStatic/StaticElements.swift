import Fanout

/// The elements of a ``StaticComposition``: a type-level list of the behaviours' concrete types, built left to
/// right as nested pairs (`StaticPair<StaticPair<StaticEnd<S>, A>, B>`), so that a delivery to each element is a
/// direct call the optimizer can inline. The underscored requirements are implementation details of
/// ``StaticComposition``.
public protocol StaticElements<Schema> {
    associatedtype Schema: DelegateSchema

    /// The number of elements.
    var count: Int { get }

    /// Whether any element responds to `key`.
    func responds(to key: Schema.Key) -> Bool

    /// Sends `message` to every element that responds to it, in order, while `shouldContinue` accepts the answers.
    ///
    /// - Returns: `false` when `shouldContinue` stopped the delivery.
    func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool

    /// Sends `message` to the elements stored at `elements`, as ``deliver(_:_:while:)`` does, reading each element
    /// in place when the delivery reaches it.
    ///
    /// - Precondition: `elements` stays initialized until this returns.
    static func _deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, at elements: UnsafePointer<Self>,
        while shouldContinue: (Result) -> Bool
    ) -> Bool

    /// ``responds(to:)`` for the elements stored at `elements`, read in place.
    ///
    /// - Precondition: `elements` stays initialized until this returns.
    static func _responds(to key: Schema.Key, at elements: UnsafePointer<Self>) -> Bool

    /// Sends `message`, with the arguments stored at `arguments`, to the elements stored at `elements`, as
    /// ``deliver(_:_:while:)`` does. By address, so that the whole chain can be inlined with nothing to borrow at
    /// each level (by value, the nested borrows crashed Swift 6.3.1 when forced inline). When given, bit *i* of
    /// `responders` says whether the *i*-th element from the last is sent the message (``_responders(to:at:)``);
    /// otherwise each element's stored messages say.
    ///
    /// - Precondition: `arguments` and `elements` stay initialized until this returns.
    static func _deliver<Arguments, Result>(
        _ message: UnsafePointer<Message<Schema, Arguments, Result>>, _ arguments: UnsafePointer<Arguments>,
        at elements: UnsafePointer<Self>, responders: UInt64?, while shouldContinue: (Result) -> Bool
    ) -> Bool

    /// The elements of the list at `elements` that are sent the message named `key`: bit *i* for the *i*-th element
    /// from the last (the last 64 of a list of ``StaticPair``s); `0` for a list of another kind.
    static func _responders(to key: Schema.Key, at elements: UnsafePointer<Self>) -> UInt64

    /// The number of elements when the type alone fixes it (``StaticEnd`` and ``StaticPair``s of it), or `nil`.
    static var _fixedCount: Int? { get }
}

// The defaults, for a list of another kind: through the instance methods.
extension StaticElements {
    @inlinable
    public static func _deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, at elements: UnsafePointer<Self>,
        while shouldContinue: (Result) -> Bool
    ) -> Bool {
        elements.pointee.deliver(message, arguments, while: shouldContinue)
    }

    @inlinable
    public static func _responds(to key: Schema.Key, at elements: UnsafePointer<Self>) -> Bool {
        elements.pointee.responds(to: key)
    }

    @inlinable
    public static func _deliver<Arguments, Result>(
        _ message: UnsafePointer<Message<Schema, Arguments, Result>>, _ arguments: UnsafePointer<Arguments>,
        at elements: UnsafePointer<Self>, responders: UInt64?, while shouldContinue: (Result) -> Bool
    ) -> Bool {
        _deliver(message.pointee, arguments.pointee, at: elements, while: shouldContinue)
    }

    @inlinable
    public static func _responders(to key: Schema.Key, at elements: UnsafePointer<Self>) -> UInt64 { 0 }

    @inlinable
    public static var _fixedCount: Int? { nil }

    /// ``_deliver(_:_:at:responders:while:)`` with the descriptor and the arguments put where it reads them: the one
    /// place both are passed by address.
    @inlinable @inline(__always)
    internal static func _deliverByAddress<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, at elements: UnsafePointer<Self>,
        responders: UInt64?, while shouldContinue: (Result) -> Bool
    ) -> Bool {
        withUnsafePointer(to: message) { message in
            withUnsafePointer(to: arguments) { arguments in
                _deliver(message, arguments, at: elements, responders: responders, while: shouldContinue)
            }
        }
    }
}

/// The empty list.
@frozen
public struct StaticEnd<Schema: DelegateSchema>: StaticElements {
    @inlinable
    public init() {}

    @inlinable
    public var count: Int { 0 }

    @inlinable
    public func responds(to key: Schema.Key) -> Bool { false }

    @inlinable @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool { true }

    @inlinable @inline(__always)
    public static func _deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, at elements: UnsafePointer<Self>,
        while shouldContinue: (Result) -> Bool
    ) -> Bool { true }

    @inlinable @inline(__always)
    public static func _responds(to key: Schema.Key, at elements: UnsafePointer<Self>) -> Bool { false }

    @inlinable @inline(__always)
    public static func _deliver<Arguments, Result>(
        _ message: UnsafePointer<Message<Schema, Arguments, Result>>, _ arguments: UnsafePointer<Arguments>,
        at elements: UnsafePointer<Self>, responders: UInt64?, while shouldContinue: (Result) -> Bool
    ) -> Bool { true }

    @inlinable @inline(__always)
    public static func _responders(to key: Schema.Key, at elements: UnsafePointer<Self>) -> UInt64 { 0 }

    @inlinable
    public static var _fixedCount: Int? { 0 }
}

/// The elements of `Prefix`, then `last`, held strongly.
///
/// `last`'s `responds(to:)` is read once, when the pair is made; an element that is itself a multiplexer is sent
/// every message and filters on its own, since its answer can change.
@frozen
public struct StaticPair<Prefix: StaticElements, Last: AnyObject>: StaticElements {
    public typealias Schema = Prefix.Schema

    /// The elements before `last`.
    @inlinable
    public var prefix: Prefix { storedPrefix }
    /// The last element.
    @inlinable
    public var last: Last { storedLast }

    // `var`s, never written after `init`: a delivery passes their addresses on with `&`.
    @usableFromInline
    internal var storedPrefix: Prefix
    @usableFromInline
    internal var storedLast: Last
    @usableFromInline
    internal let messages: KeySet<Schema.Key>
    /// Whether `last` is a multiplexer, whose `responds(to:)` can change.
    @usableFromInline
    internal let isMultiplexer: Bool

    /// `prefix`, then `last`.
    ///
    /// - Precondition: `last` is a `Schema.Target` (checked here, once).
    @inlinable
    public init(_ prefix: Prefix, _ last: Last) {
        guard let target = last as? Schema.Target else {
            preconditionFailure("\(Last.self) is not a \(Schema.Target.self)")
        }
        storedPrefix = prefix
        storedLast = last
        isMultiplexer = last is any Delivering
        messages = isMultiplexer ? KeySet { _ in true } : Schema.respondedMessages(of: target)
        assert(MemoryLayout<Self>.offset(of: \Self.storedPrefix) == 0, "storedPrefix must be StaticPair's first field")
    }

    @inlinable
    public var count: Int { prefix.count + 1 }

    @inlinable
    public func responds(to key: Schema.Key) -> Bool {
        withUnsafePointer(to: self) { Self._responds(to: key, at: $0) }
    }

    @inlinable
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) -> Bool {
        withUnsafePointer(to: self) { Self._deliver(message, arguments, at: $0, while: shouldContinue) }
    }

    /// ``deliver(_:_:while:)`` with the pair read where it is stored.
    @inlinable
    public static func _deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, at pair: UnsafePointer<Self>,
        while shouldContinue: (Result) -> Bool
    ) -> Bool {
        _deliverByAddress(message, arguments, at: pair, responders: nil, while: shouldContinue)
    }

    /// ``deliver(_:_:while:)`` with the pair read where it is stored: the prefix's elements first, then this pair's,
    /// each loaded just before it is used rather than the whole list up front. Always inlined, so that a list's
    /// delivery is one straight line of direct calls wherever it is sent from.
    @inlinable @inline(__always)
    public static func _deliver<Arguments, Result>(
        _ message: UnsafePointer<Message<Schema, Arguments, Result>>, _ arguments: UnsafePointer<Arguments>,
        at pair: UnsafePointer<Self>, responders: UInt64?, while shouldContinue: (Result) -> Bool
    ) -> Bool {
        guard
            Prefix._deliver(
                message, arguments, at: prefix(at: pair), responders: responders.map { $0 &>> 1 },
                while: shouldContinue)
        else { return false }
        guard isSent(message.pointee.key, at: pair, responders: responders) else { return true }
        // The cast folds away once `Last` is concrete: a direct call.
        let answer = unownedLast(at: pair)._withUnsafeGuaranteedRef {
            message.pointee.body($0 as! Schema.Target, arguments.pointee)
        }
        return shouldContinue(answer)
    }

    /// Whether this pair's element is sent the message named `key`: bit 0 of `responders` when the group gives them
    /// (each level passes its prefix the word shifted by one), otherwise the messages stored in the pair.
    @inlinable @inline(__always)
    internal static func isSent(_ key: Schema.Key, at pair: UnsafePointer<Self>, responders: UInt64?) -> Bool {
        guard let responders else { return pair.pointee.messages.contains(key) }
        return responders & 1 != 0
    }

    @inlinable
    public static func _responders(to key: Schema.Key, at pair: UnsafePointer<Self>) -> UInt64 {
        Prefix._responders(to: key, at: prefix(at: pair)) &<< 1 | (pair.pointee.messages.contains(key) ? 1 : 0)
    }

    @inlinable
    public static var _fixedCount: Int? { Prefix._fixedCount.map { $0 + 1 } }

    /// ``responds(to:)`` with the pair read where it is stored.
    @inlinable
    public static func _responds(to key: Schema.Key, at pair: UnsafePointer<Self>) -> Bool {
        if Prefix._responds(to: key, at: prefix(at: pair)) { return true }
        guard pair.pointee.messages.contains(key) else { return false }
        guard pair.pointee.isMultiplexer else { return true }
        return unownedLast(at: pair)._withUnsafeGuaranteedRef { Schema.responds($0 as! Schema.Target, to: key) }
    }

    /// The prefix of the pair at `pair`, in place: a frozen struct's first stored property, so at the pair's own
    /// address (checked in debug builds when a pair is made); the portable path asks the key path for the offset.
    @inlinable @inline(__always)
    internal static func prefix(at pair: UnsafePointer<Self>) -> UnsafePointer<Prefix> {
        guard usesLayoutFastPaths else {
            return UnsafeRawPointer(pair).advanced(by: MemoryLayout<Self>.offset(of: \Self.storedPrefix)!)
                .assumingMemoryBound(to: Prefix.self)
        }
        return UnsafeRawPointer(pair).assumingMemoryBound(to: Prefix.self)
    }

    /// The element of the pair at `pair`, unowned: a plain load, no retain. The pair's strong reference keeps it
    /// alive while `pair` stays initialized, which the caller guarantees for its call.
    @inlinable @inline(__always)
    internal static func unownedLast(at pair: UnsafePointer<Self>) -> Unmanaged<Last> {
        unowned(&UnsafeMutablePointer(mutating: pair).pointee.storedLast)
    }

    /// The reference at `element`, unowned (`Unmanaged` has the layout of the reference it wraps).
    @inlinable @inline(__always)
    internal static func unowned(_ element: UnsafePointer<Last>) -> Unmanaged<Last> {
        UnsafeRawPointer(element).load(as: Unmanaged<Last>.self)
    }
}

/// Builds a ``StaticComposition``'s elements from a list of behaviours, one per line.
@resultBuilder
public enum StaticElementsBuilder<Schema: DelegateSchema> {
    @inlinable
    public static func buildPartialBlock<First: AnyObject>(first: First) -> StaticPair<StaticEnd<Schema>, First> {
        StaticPair(StaticEnd(), first)
    }

    @inlinable
    public static func buildPartialBlock<Prefix: StaticElements, Next: AnyObject>(
        accumulated: Prefix, next: Next
    ) -> StaticPair<Prefix, Next> where Prefix.Schema == Schema {
        StaticPair(accumulated, next)
    }
}
