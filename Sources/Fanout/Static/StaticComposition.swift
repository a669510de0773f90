/// A group of behaviours fixed where it is built, delivered at the floor: no
/// registry, no reference counting, a direct call per element. Use it as a
/// delegate when a screen's behaviours are known at compile time.
///
/// ```swift
/// let behaviours = ScrollViewSchema.compose {
///     pullToRefresh
///     parallaxHeader
///     dynamicBehaviours        // a run-time multiplexer as one element
/// }
/// scrollView.delegate = behaviours
/// ```
///
/// Semantics are the dynamic strategies' (registration order, `responds(to:)`
/// read once per element, `askAll` without short-circuit, `askUntilAnswered`
/// stopping at the first answer, targets held strongly, callbacks may send
/// again), except that nothing is added or removed: a delivery's snapshot is
/// the group itself. Groups nest, and a group may hold a dynamic multiplexer.
///
/// Called on its concrete type, a delivery is inlined for the element types.
/// Called through the protocol (a delegate property), the conformance is
/// generic over the elements, so the group delivers through a table of
/// closures made when it was built, specialized for each message its schema
/// visits (``DelegateSchema/visitMessages(_:)``), 50 to 150 times slower
/// (Documentation/Findings.md, 22 and 33): to set a group as a delegate, hold
/// it in a type of your own (``ComposedBehaviours``).
///
/// Keep a group to 47 elements and nest groups beyond: past that, Swift
/// 6.3's generic specializer gives up on the element list's nested type and
/// the delivery runs unspecialized, hundreds of times slower
/// (Documentation/Findings.md, 32).
public final class StaticComposition<Schema, Elements: StaticElements>: Delivering where Elements.Schema == Schema {
    /// The behaviours, in order.
    @inlinable
    public var elements: Elements { storage.pointee }

    /// The behaviours, stored apart from the group so that a delivery reads
    /// each element and its messages where they are stored, just before
    /// using them: a copy of the whole list, which is what reading a stored
    /// `elements` gives a delivery, holds every element and message set at
    /// once, more values than registers (Documentation/Findings.md, 27).
    ///
    /// The same allocation holds, at ``respondersOffset``, one word per
    /// message ordinal: its responders, bit *i* set when the *i*-th element
    /// from the last is sent the message (for a group of at most 64). A
    /// delivery reads its message's word once and tests a bit per element in
    /// a register, instead of loading each element's messages
    /// (Documentation/Findings.md, 31).
    ///
    /// Initialized in `init`, never written again, freed in `deinit`.
    @usableFromInline
    internal let storage: UnsafeMutablePointer<Elements>

    /// Per message ordinal, the delivery specialized for `Elements` (a
    /// ``StaticDelivery``), when the schema visits its messages.
    @usableFromInline
    internal let table: ContiguousArray<AnyObject?>

    /// A group of `elements`.
    @inlinable
    public init(_ elements: Elements) {
        let keys = Schema.Key.allCases
        // The words are indexed by ordinal in raw memory: a wrong ordinal would
        // read or write outside it, so it is checked in every build, once.
        precondition(
            keys.enumerated().allSatisfy { position, key in key.ordinal == position },
            "\(Schema.Key.self).ordinal must be each key's position in allCases")
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.respondersOffset + keys.count * MemoryLayout<UInt64>.stride,
            alignment: Swift.max(MemoryLayout<Elements>.alignment, MemoryLayout<UInt64>.alignment))
        storage = memory.bindMemory(to: Elements.self, capacity: 1)
        storage.initialize(to: elements)
        let responders = (memory + Self.respondersOffset).bindMemory(to: UInt64.self, capacity: keys.count)
        for key in keys {
            responders[key.ordinal] = Elements._responders(to: key, at: storage)
        }
        var builder = StaticDeliveryTable<Elements>()
        Schema.visitMessages(&builder)
        table = builder.table
    }

    deinit {
        storage.deinitialize(count: 1)
        UnsafeMutableRawPointer(storage).deallocate()
    }

    /// Where the responders of each message start in the storage's
    /// allocation: after the elements (all the bytes bound to them), aligned
    /// for `UInt64`.
    @inlinable
    internal static var respondersOffset: Int {
        let alignment = MemoryLayout<UInt64>.alignment
        return (MemoryLayout<Elements>.stride + alignment - 1) / alignment * alignment
    }

    /// The word of a message that every element is sent, for a group of at
    /// most 64 elements; `nil` for a larger group or a list of another kind,
    /// whose deliveries read each element's stored messages. A constant once
    /// specialized (computed from the type, in O(*n*) otherwise).
    @inlinable
    internal static var everyElement: UInt64? {
        guard let count = Elements._fixedCount, count <= UInt64.bitWidth else { return nil }
        return count == UInt64.bitWidth ? .max : 1 &<< UInt64(count) &- 1
    }

    /// The responders of the message named `key`: bit *i* set when the *i*-th
    /// element from the last is sent it.
    @inlinable
    internal func responders(to key: Schema.Key) -> UInt64 {
        UnsafeRawPointer(storage).load(
            fromByteOffset: Self.respondersOffset + key.ordinal &* MemoryLayout<UInt64>.stride, as: UInt64.self)
    }

    /// A group of the behaviours listed in `build`, in order.
    @inlinable
    public convenience init(@StaticElementsBuilder<Schema> _ build: () -> Elements) {
        self.init(build())
    }

    /// The number of elements.
    @inlinable
    public var count: Int { storage.pointee.count }

    /// Whether any element responds to `key`.
    @inlinable
    public func responds(to key: Schema.Key) -> Bool { Elements._responds(to: key, at: storage) }

    /// Sends `message` to every element that responds to it, in order, while
    /// `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*n*) direct calls for *n* elements.
    @inlinable @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        // Specialized for the elements (a call on the concrete type): inline.
        if _isConcrete(Elements.self) {
            deliverInline(message, arguments, while: shouldContinue)
            return
        }
        // Generic (a call through the protocol's witness): the table's delivery,
        // specialized when the group was built.
        if let delivery = table[message.key.ordinal] {
            unsafeDowncast(delivery, to: StaticDelivery<Arguments, Result>.self).body(self, arguments, shouldContinue)
            return
        }
        _ = elements.deliver(message, arguments, while: shouldContinue)
    }
}

extension StaticComposition {
    /// The delivery to the elements, read in place from the group's storage
    /// (reading `elements` into a value would retain every element).
    @inlinable @inline(__always)
    internal func deliverInline<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        // A group of more than 64, or a list of another kind than
        // `StaticPair`s, has no word: every level reads its stored messages.
        guard let every = Self.everyElement else {
            deliverInPlace(message, arguments, responders: nil, while: shouldContinue)
            return
        }
        let responders = responders(to: message.key)
        // When every element is sent the message (each behaviour implements
        // it), the delivery is given the word as a constant, so that no
        // element is tested: a second copy of the delivery, with the element
        // calls alone (Documentation/Findings.md, 31).
        if responders == every {
            deliverInPlace(message, arguments, responders: every, while: shouldContinue)
        } else {
            deliverInPlace(message, arguments, responders: responders, while: shouldContinue)
        }
    }

    /// The delivery, with the arguments passed by address.
    @inlinable @inline(__always)
    internal func deliverInPlace<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, responders: UInt64?,
        while shouldContinue: (Result) -> Bool
    ) {
        // The group is alive for the call (its caller holds it), so its
        // storage stays initialized until the delivery returns.
        withUnsafePointer(to: message) { message in
            withUnsafePointer(to: arguments) { arguments in
                _ = Elements._deliver(message, arguments, at: storage, responders: responders, while: shouldContinue)
            }
        }
    }
}

/// One message's delivery to a group, made where the group's types are known.
@usableFromInline
internal final class StaticDelivery<Arguments, Result> {
    @usableFromInline
    internal let body: (_ group: AnyObject, _ arguments: Arguments, _ shouldContinue: (Result) -> Bool) -> Void

    @inlinable
    internal init(_ body: @escaping (_ group: AnyObject, _ arguments: Arguments, _ shouldContinue: (Result) -> Bool) -> Void) {
        self.body = body
    }
}

/// Visits a schema's messages and makes each one's delivery for `Elements`.
/// The closure captures nothing but the message descriptor, a constant once
/// the schema's visit is inlined, and takes the group as an argument.
@usableFromInline
internal struct StaticDeliveryTable<Elements: StaticElements>: MessageVisitor {
    @usableFromInline
    typealias Schema = Elements.Schema

    @usableFromInline
    var table = ContiguousArray<AnyObject?>(repeating: nil, count: Schema.Key.allCases.count)

    @inlinable
    init() {}

    @inlinable
    mutating func visit<Arguments, Result>(_ message: Message<Schema, Arguments, Result>) {
        table[message.key.ordinal] = StaticDelivery<Arguments, Result> { group, arguments, shouldContinue in
            unsafeDowncast(group, to: StaticComposition<Schema, Elements>.self)
                .deliverInline(message, arguments, while: shouldContinue)
        }
    }
}

extension DelegateSchema {
    /// A ``StaticComposition`` of the behaviours listed in `build`, in order:
    ///
    /// ```swift
    /// let behaviours = ScrollViewSchema.compose {
    ///     pullToRefresh
    ///     parallaxHeader
    /// }
    /// ```
    @inlinable
    public static func compose<Elements: StaticElements>(
        @StaticElementsBuilder<Self> _ build: () -> Elements
    ) -> StaticComposition<Self, Elements> where Elements.Schema == Self {
        StaticComposition(build())
    }
}
