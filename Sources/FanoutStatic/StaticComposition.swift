import Fanout

/// A group of behaviours fixed where it is built, delivered at the floor: no registry, no reference counting, a
/// direct call per element. Use it as a delegate when a screen's behaviours are known at compile time.
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
/// Semantics are the dynamic strategies' (registration order, `responds(to:)` read once per element, `askAll`
/// without short-circuit, `askUntilAnswered` stopping at the first answer, targets held strongly, callbacks may
/// send again), except that nothing is added or removed. Groups nest, and a group may hold a dynamic multiplexer.
///
/// Called through the protocol (a delegate property), the conformance's witnesses are generic over the elements
/// and run unspecialized, so the group delivers through a table of closures specialized for each message its
/// schema visits (``DelegateSchema/visitMessages(_:)``), still many times slower than on its concrete type: to
/// set a group as a delegate, hold it in a type of your own (``ComposedBehaviours``).
///
/// Keep a group to 47 elements and nest groups beyond: past that, Swift 6.3's generic specializer gives up on
/// the element list's nested type and the delivery runs unspecialized, hundreds of times slower.
public final class StaticComposition<Schema, Elements: StaticElements>: Delivering where Elements.Schema == Schema {
    /// The behaviours, in order: the first stored property, so that a delivery finds it at a fixed offset.
    @usableFromInline
    internal let storedElements: Elements

    /// Per message ordinal, bit *i* set when the *i*-th element from the last is sent the message (groups of at
    /// most 64), so that a delivery reads one word, not each element's messages. Freed in `deinit`.
    @usableFromInline
    internal let words: UnsafeMutablePointer<UInt64>

    /// The portable path's copy of the elements (`usesLayoutFastPaths`), where ``storage`` points; `nil` on the fast path.
    @usableFromInline
    internal let portableStorage: UnsafeMutablePointer<Elements>?

    /// Per message ordinal, the delivery specialized for `Elements` (a ``StaticDelivery``), if the schema visits it.
    @usableFromInline
    internal let table: ContiguousArray<AnyObject?>

    /// The behaviours, in order.
    @inlinable
    public var elements: Elements { storedElements }

    /// Where the group stores its elements, for a delivery to read each element in place rather than copy the list
    /// first. The first stored property of a class follows the object's header, at the offset `ManagedBuffer` relies
    /// on too (`_getUnsafePointerToStoredProperties`), rounded up to its alignment; valid while the group lives,
    /// which its caller guarantees for a call. Checked in debug builds, in `init`, against the property's value.
    @inlinable @inline(__always)
    internal var storage: UnsafePointer<Elements> {
        guard usesLayoutFastPaths else { return UnsafePointer(portableStorage.unsafelyUnwrapped) }
        let properties = _getUnsafePointerToStoredProperties(self)
        // A constant once specialized: an alignment of a word or less needs no rounding.
        let start =
            MemoryLayout<Elements>.alignment <= MemoryLayout<AnyObject>.alignment
            ? properties : properties.alignedUp(for: Elements.self)
        return UnsafePointer(start.assumingMemoryBound(to: Elements.self))
    }

    /// A group of `elements`.
    @inlinable
    public init(_ elements: Elements) {
        // The words are indexed by ordinal, so the schema's glue is checked first, in every build (`SchemaInfo`).
        SchemaInfo<Schema>.check()
        let keys = Schema.Key.allCases
        storedElements = elements
        if usesLayoutFastPaths {
            portableStorage = nil
        } else {
            let buffer = UnsafeMutablePointer<Elements>.allocate(capacity: 1)
            buffer.initialize(to: elements)
            portableStorage = buffer
        }
        words = .allocate(capacity: keys.count)
        var builder = StaticDeliveryTable<Elements>()
        Schema.visitMessages(&builder)
        table = builder.table
        for key in keys {
            words[key.ordinal] = Elements._responders(to: key, at: storage)
            // Debug builds: what `storage` reads is what the property holds.
            assert(
                words[key.ordinal] == withUnsafePointer(to: storedElements) { Elements._responders(to: key, at: $0) },
                "the group's elements are not where it reads them")
        }
    }

    deinit {
        words.deallocate()
        portableStorage?.deinitialize(count: 1).deallocate()
    }

    /// The word of a message every element is sent, for a group of at most 64 elements; `nil` for a larger group
    /// or a list of another kind. A constant once specialized.
    @inlinable
    internal static var everyElement: UInt64? {
        guard let count = Elements._fixedCount, count <= UInt64.bitWidth else { return nil }
        return count == UInt64.bitWidth ? .max : 1 &<< UInt64(count) &- 1
    }

    /// The responders of the message named `key`: bit *i* set when the *i*-th element from the last is sent it.
    @inlinable
    internal func responders(to key: Schema.Key) -> UInt64 { words[key.ordinal] }

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

    /// Sends `message` to every element that responds to it, in order, while `shouldContinue` accepts the answers.
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
        // Generic (through the protocol's witness): the table's delivery, specialized when the group was built.
        if let delivery = table[message.key.ordinal] {
            unsafeDowncast(delivery, to: StaticDelivery<Arguments, Result>.self).body(self, arguments, shouldContinue)
            return
        }
        _ = elements.deliver(message, arguments, while: shouldContinue)
    }
}

extension StaticComposition {
    /// The delivery to the elements, read in place from the group's storage (a copy would retain every element).
    @inlinable @inline(__always)
    internal func deliverInline<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        // More than 64 elements, or a list of another kind: no word; each level reads its stored messages.
        guard let every = Self.everyElement else {
            deliverInPlace(message, arguments, responders: nil, while: shouldContinue)
            return
        }
        let responders = responders(to: message.key)
        // When every element is sent the message, the word is passed as a constant, so that every test folds away.
        if responders == every {
            deliverInPlace(message, arguments, responders: every, while: shouldContinue)
        } else {
            deliverInPlace(message, arguments, responders: responders, while: shouldContinue)
        }
    }

    /// The delivery from the group's storage, which stays initialized while the caller holds the group.
    @inlinable @inline(__always)
    internal func deliverInPlace<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, responders: UInt64?,
        while shouldContinue: (Result) -> Bool
    ) {
        _ = Elements._deliverByAddress(message, arguments, at: storage, responders: responders, while: shouldContinue)
    }
}

/// One message's delivery to a group, made where the group's types are known.
@usableFromInline
internal final class StaticDelivery<Arguments, Result> {
    @usableFromInline
    internal let body: (_ group: AnyObject, _ arguments: Arguments, _ shouldContinue: (Result) -> Bool) -> Void

    @inlinable
    internal init(
        _ body: @escaping (_ group: AnyObject, _ arguments: Arguments, _ shouldContinue: (Result) -> Bool) -> Void
    ) {
        self.body = body
    }
}

/// Makes each visited message's delivery for `Elements`: a closure that captures only the descriptor, a
/// constant once the visit is inlined, and takes the group as an argument.
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
    /// A ``StaticComposition`` of the behaviours listed in `build`, in order (example: ``StaticComposition``).
    @inlinable
    public static func compose<Elements: StaticElements>(
        @StaticElementsBuilder<Self> _ build: () -> Elements
    ) -> StaticComposition<Self, Elements> where Elements.Schema == Self {
        StaticComposition(build())
    }
}
