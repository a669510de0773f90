/// The type-erased face of one message's list (a ``ClosureListBase``), so
/// that a storage's table of lists is not generic: a table whose element
/// type is generic over the target is looked up in the runtime's metadata
/// caches by the storage's unspecialized `add` and `remove` code, about 700
/// instructions per message bound (measured).
@usableFromInline
internal class AnyClosureList {
    @usableFromInline
    init() {}

    /// Removes the entry of the target whose identity is `id`, if any.
    func remove(_ id: ObjectIdentifier) {}

    /// Whether a dispatch of this list is in flight.
    var isDispatching: Bool { false }

    /// Flags the dispatches of this list in flight, if any: the last to end
    /// tells its storage, which announces a change made meanwhile
    /// (``PinnedArray/flagDispatches()``).
    func flagDispatches() {}
}

/// One message's list of responders, in registration order, whatever the
/// message's signature: the storage of ``ClosureTableMultiplexer`` (indexed by
/// message ordinal) and ``SelectorDictionaryMultiplexer`` (keyed by selector),
/// whose lists for messages of different signatures share one table and one
/// delivery (``deliver(in:while:invoking:)``). In a storage that forwards,
/// each responder also has the closure bound to it for `forward`
/// (``ClosureList``).
///
/// A list, once made, stays in its storage's table for the storage's
/// lifetime (removing a target removes its entry, never the list), so a
/// dispatch may read it unretained while its storage's caller holds the
/// storage.
@usableFromInline
internal class ClosureListBase<Target>: AnyClosureList {
    /// A dispatch pins it and reads it in place (``deliver(in:while:invoking:)``);
    /// a change, and every other read, is instantaneous, so it needs no
    /// dynamic exclusivity check.
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline final var responders = IdentifiedList<Handler>()

    /// One target that responds to the message, and, in a storage that
    /// forwards, the closure bound to it.
    ///
    /// The typed dispatch calls the target, which the entry holds in the
    /// pinned buffer itself, through the descriptor's body: one load from the
    /// buffer to the call, and the body inlined. `forward` calls the bound
    /// closure.
    @frozen @usableFromInline
    internal struct Handler {
        /// The target, held strongly.
        @usableFromInline let target: Target
        /// The bound closure, a ``ClosureList/Bound`` of the list's signature,
        /// or `nil` in a storage that does not forward. `forward` calls it
        /// through a reference read from the pinned buffer, which it borrows.
        /// A closure stored in the buffer itself would be copied out for each
        /// call, one retain and one release of its context per delivery.
        @usableFromInline let bound: AnyObject?

        @inlinable
        init(target: Target, bound: AnyObject?) {
            self.target = target
            self.bound = bound
        }
    }

    @usableFromInline
    override init() {}

    override final func remove(_ id: ObjectIdentifier) {
        responders.remove(id)
    }

    override final var isDispatching: Bool { responders.entries.isDispatching }

    override final func flagDispatches() { responders.entries.flagDispatches() }

    /// Calls, with `invoke`, the targets of `list` in registration order, for
    /// as long as `shouldContinue` accepts the answers.
    ///
    /// No reference is counted. The list's buffer is pinned for the dispatch
    /// (``PinnedArray``): the handlers in it, and so their targets, stay alive
    /// until it ends, whatever the calls add or remove; each target is read in
    /// place from the buffer and borrowed for its call. The list itself stays
    /// alive because its storage does (see the type's documentation): the
    /// caller holds the storage.
    ///
    /// - Returns: `true` when the dispatch was the last one of this list in
    ///   flight and the list's dispatches were flagged, or a change retired
    ///   a buffer during them (``PinnedArray/endDispatchAfterChange()``):
    ///   then the storage announces a deferred change if no list is in flight.
    /// - Complexity: O(*r*) in the handlers of the list.
    @inlinable
    @inline(__always)
    static func deliver<Result>(
        in list: Unmanaged<AnyClosureList>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Target) -> Result
    ) -> Bool {
        assert(list._withUnsafeGuaranteedRef { $0 is ClosureListBase }, "a list of another target type")
        let list = Unmanaged<ClosureListBase>.fromOpaque(list.toOpaque())
        // Pinned (``PinnedArray/beginDispatch()``), the steps one by one and out of line but for the common case,
        // each taking only the list, so that no address inside it is kept across the calls.
        if _fastPath(list._withUnsafeGuaranteedRef { $0.responders.entries.isIdle }) {
            list._withUnsafeGuaranteedRef { $0.responders.entries.pinFirst() }
        } else {
            pinAgain(list)
        }
        let handlers = list._withUnsafeGuaranteedRef { $0.responders.entries.pinnedElements }
        // Indexing with a count read once: a `for … in` that can stop early
        // re-reads the count on every turn (the gate pins this loop).
        let count = handlers.count
        var index = 0
        while index < count {
            guard shouldContinue(invoke(handlers[index].value.target)) else { break }
            index &+= 1
        }
        if _fastPath(list._withUnsafeGuaranteedRef { $0.responders.entries.isPinnedOnce }) {
            list._withUnsafeGuaranteedRef { $0.responders.entries.unpin() }
            return false
        }
        return endDispatchAfterChange(list)
    }

    /// Pins the list's buffer while another dispatch is in flight, or a
    /// buffer retired.
    @inlinable @inline(never)
    static func pinAgain(_ list: Unmanaged<ClosureListBase>) {
        list._withUnsafeGuaranteedRef { $0.responders.entries.pinAgain() }
    }

    /// Ends the dispatch begun last while another is in flight, or after a
    /// change (``PinnedArray/endDispatchAfterChange()``).
    @inlinable @inline(never)
    static func endDispatchAfterChange(_ list: Unmanaged<ClosureListBase>) -> Bool {
        switch list._withUnsafeGuaranteedRef({ $0.responders.entries.endDispatchAfterChange() }) {
        case .ended(let wasLast):
            return wasLast
        case .released(let buffer):
            // Dropped with no access to the list open: the targets' deinits may use the storage.
            _ = consume buffer
        }
        return list._withUnsafeGuaranteedRef { $0.responders.entries.endRelease() }
    }
}

/// The list of one message of a storage that forwards, with its signature:
/// each responder's bound closure (``Bound``) is made here, where the
/// message's types are known, and called by `forward`.
@usableFromInline
internal final class ClosureList<Target, Arguments, Result>: ClosureListBase<Target> {
    /// A bound closure (``Handler/bound``).
    @usableFromInline
    internal final class Bound {
        @usableFromInline let call: (Arguments) -> Result

        init(_ call: @escaping (Arguments) -> Result) { self.call = call }
    }

    @usableFromInline
    override init() {}

    /// Appends `target` to the list in `slot`, creating the list if the slot
    /// is empty; with `forwarding`, with the closure that sends `message` to
    /// it, which `forward` calls.
    ///
    /// - Precondition: The slot, if filled, holds the list for a descriptor of
    ///   the same signature (a schema lists one descriptor per message).
    static func bind<M: MessageProtocol>(
        _ message: M, to target: M.Schema.Target, id: ObjectIdentifier, in slot: inout AnyClosureList?,
        forwarding: Bool
    ) where M.Schema.Target == Target, M.Arguments == Arguments, M.Result == Result {
        let list: ClosureList
        if let existing = slot {
            guard let typed = existing as? ClosureList else {
                preconditionFailure(
                    "\(M.Schema.self) lists two descriptors for '\(message.key.rawValue)' with different types")
            }
            list = typed
        } else {
            list = ClosureList()
            slot = list
        }
        list.responders.append(
            Handler(target: target, bound: forwarding ? Bound(message.bound(to: target)) : nil), for: id)
    }

    /// The handlers of a list as a dispatch reads them, pinned.
    @usableFromInline
    typealias PinnedHandlers = UnsafeBufferPointer<IdentifiedList<Handler>.Entry>

    /// Calls the bound closure of the handler at `index` of `handlers` with
    /// `arguments`: `forward`'s delivery. `handlers` is a pinned buffer, which
    /// keeps the closure's object alive: the reference is read as `Unmanaged`
    /// and borrowed for the call, so nothing is retained. (Read as a strong
    /// reference, it is copied: one retain and one release per delivery,
    /// measured.)
    ///
    /// - Precondition: The list is a forwarding storage's (the closure was
    ///   bound), of this signature.
    /// - Complexity: O(1) plus the target's own work.
    @inlinable
    @inline(__always)
    static func call(_ handlers: PinnedHandlers, at index: Int, with arguments: Arguments) -> Result {
        Unmanaged.passUnretained(unsafeDowncast(handlers[index].value.bound.unsafelyUnwrapped, to: Bound.self))
            ._withUnsafeGuaranteedRef { $0.call(arguments) }
    }

    /// Calls every closure of the list `handlers` (of this signature) with
    /// `arguments` and makes `answers` their answers, each boxed by `box` as a
    /// `Boxed` (or `nil`): the delivery of `forward`, which does not stop early.
    ///
    /// `answers` may hold the answers of an earlier call. When nothing else
    /// holds that array, its storage is reused: each old answer is destroyed
    /// through ``ReusedAnswers`` and the new one written in its place, with no
    /// allocation and none of the runtime's generic value witnesses per answer.
    ///
    /// - Complexity: O(*r* + *o*) for *r* handlers and *o* old answers.
    @inlinable
    @inline(__always)
    static func forward<Boxed>(
        _ arguments: Arguments, to handlers: AnyObject?, into answers: inout [Any?], boxing box: (Result) -> Any?,
        boxedType: Boxed.Type
    ) {
        // Pinned, as for a dispatch: the callbacks may change the list.
        let list = handlers.map { Unmanaged<ClosureList>.fromOpaque(Unmanaged.passUnretained($0).toOpaque()) }
        let pinned = list?._withUnsafeGuaranteedRef { $0.responders.entries.beginDispatch() }
        defer {
            if let list {
                if list._withUnsafeGuaranteedRef({ $0.responders.entries.isPinnedOnce }) {
                    list._withUnsafeGuaranteedRef { $0.responders.entries.unpin() }
                } else {
                    _ = endDispatchAfterChange(Unmanaged<ClosureListBase<Target>>.fromOpaque(list.toOpaque()))
                }
            }
        }
        let pinnedHandlers = pinned ?? PinnedHandlers(start: nil, count: 0)
        let count = pinnedHandlers.count
        var index = 0
        if ReusedAnswers.canReuse(&answers) {
            let old = answers.count
            answers.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer.baseAddress!
                while index < Swift.min(old, count) {
                    ReusedAnswers.destroy(slots + index, skipping: boxedType)
                    ReusedAnswers.initialize(
                        slots + index, to: Self.call(pinnedHandlers, at: index, with: arguments), boxing: box,
                        boxedType: boxedType)
                    index &+= 1
                }
                var spare = count
                while spare < old {
                    ReusedAnswers.destroy(slots + spare, skipping: boxedType)
                    (slots + spare).initialize(to: nil)
                    spare &+= 1
                }
            }
            if old > count { answers.removeLast(old - count) }
        } else {
            answers = []
        }
        if index < count {
            answers.reserveCapacity(count)
            while index < count {
                answers.append(box(Self.call(pinnedHandlers, at: index, with: arguments)))
                index &+= 1
            }
        }
    }
}

/// The reuse of `forward`'s answers array: destroying an `Any?` through the
/// runtime's generic value witnesses (what `removeAll`, assignment and the
/// array's own deinitializer do) costs about 60 instructions per answer; an
/// `Any?` whose `Any` is destroyed directly costs about 15 (measured with
/// callgrind), and one that holds a value of
/// the trivial type the new answers have, none.
@usableFromInline
internal enum ReusedAnswers {
    /// Whether `answers` may be written in place: the layout is known and
    /// nothing else holds its storage (an array is one reference to its
    /// storage object on this platform; the empty array's shared storage is
    /// never unique).
    @inlinable
    internal static func canReuse(_ answers: inout [Any?]) -> Bool {
        guard ExistentialLayout.isKnown, MemoryLayout<[Any?]>.size == MemoryLayout<AnyObject>.size else { return false }
        return withUnsafeMutablePointer(to: &answers) { array in
            UnsafeMutableRawPointer(array).withMemoryRebound(to: AnyObject.self, capacity: 1) {
                isKnownUniquelyReferenced(&$0.pointee)
            }
        }
    }

    /// Destroys the answer at `slot`, leaving it uninitialized. An answer
    /// whose type is `Trivial` (a type with nothing to destroy: `Void`,
    /// `Bool`) is left as it is: the array of a message answered again is
    /// overwritten without a call per answer.
    @inlinable
    @inline(__always)
    internal static func destroy<Trivial>(_ slot: UnsafeMutablePointer<Any?>, skipping trivial: Trivial.Type) {
        let raw = UnsafeMutableRawPointer(slot)
        let metadata = raw.load(fromByteOffset: ExistentialLayout.metadataOffset, as: UInt.self)
        guard metadata != 0 else { return }
        if _isPOD(Trivial.self) && ExistentialLayout.storesInline(Trivial.self)
            && metadata == ExistentialLayout.identity(of: Trivial.self)
        {
            return
        }
        raw.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
    }

    /// Writes `answer`, boxed by `box`, to the uninitialized `slot`. An
    /// answer boxed as it is (`Boxed` is `Answer`), of a trivial type stored
    /// inline (`Void`, `Bool`), is written as
    /// its own bytes and its type's metadata. The compiler's way builds the
    /// `Any?` in a stack temporary (the callee's answer, then the metadata
    /// word) and copies it with 16-byte loads that span those narrower stores
    /// just made: loads the processor cannot serve by store forwarding, about
    /// 3 ns per answer here.
    @inlinable
    @inline(__always)
    internal static func initialize<Answer, Boxed>(
        _ slot: UnsafeMutablePointer<Any?>, to answer: Answer, boxing box: (Answer) -> Any?, boxedType: Boxed.Type
    ) {
        guard
            ExistentialLayout.isKnown && Answer.self == Boxed.self && _isPOD(Answer.self)
                && ExistentialLayout.storesInline(Answer.self)
        else {
            return slot.initialize(to: box(answer))
        }
        let raw = UnsafeMutableRawPointer(slot)
        raw.storeBytes(of: answer, as: Answer.self)
        raw.storeBytes(
            of: ExistentialLayout.identity(of: Answer.self), toByteOffset: ExistentialLayout.metadataOffset,
            as: UInt.self)
    }
}

/// A storage whose messages' responders are in ``ClosureListBase`` lists
/// (``ClosureTableMultiplexer``, ``SelectorDictionaryMultiplexer``): their one
/// delivery, which differs only in where a message's list is found.
@usableFromInline
internal protocol ClosureListStorage: ConfinedStorage {
    associatedtype Schema: DelegateSchema

    /// The list of the message named `key`, if one was made.
    func list(for key: Schema.Key) -> Unmanaged<AnyClosureList>?

    /// The last dispatch of a list ended flagged, or after a change: announces
    /// a deferred change if no list is in flight any more.
    func listDispatchesEnded()
}

extension Unmanaged where Instance: ClosureListStorage {
    /// The delivery of a closure strategy (its ``_TargetCalling``
    /// requirement): calls, with `invoke`, each target in the list of the
    /// message named `key`, in registration order, while `shouldContinue`
    /// accepts the answers. The storage, which the caller holds, is borrowed
    /// for each read; the list's pinned buffer keeps the targets alive
    /// (``ClosureListBase/deliver(in:while:invoking:)``).
    ///
    /// - Complexity: O(*r*) in the targets that respond to the message, plus
    ///   the list's lookup.
    @inlinable @inline(__always)
    internal func deliver<Result>(
        _ key: Instance.Schema.Key, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Instance.Schema.Target) -> Result
    ) {
        let confined = beginCall()
        defer { confined.end() }  // a call of the storage, to its end
        // The list's pin marks the dispatch in flight: the storage counts nothing of its own (a list whose dispatches
        // end flagged, or after a change, tells it; see `CountedDispatchStorage`).
        if let list = _withUnsafeGuaranteedRef({ $0.list(for: key) }),
            ClosureListBase<Instance.Schema.Target>.deliver(in: list, while: shouldContinue, invoking: invoke)
        {
            Self.listDispatchesEnded(self)
        }
    }

    /// Tells the storage that a list's last dispatch ended flagged or after a change.
    @inlinable @inline(never)
    internal static func listDispatchesEnded(_ storage: Self) {
        storage._withUnsafeGuaranteedRef { $0.listDispatchesEnded() }
    }
}
