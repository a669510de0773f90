/// The type-erased face of one message's list (a ``ResponderList``), so that a storage's table is not generic:
/// the storages' code that is not inlined (`add`, `remove`, `forward`) would otherwise look up a list type's metadata
/// on every call.
@usableFromInline
internal class AnyResponderList {
    @usableFromInline
    init() {}

    /// Removes the handler of the target whose identity is `id`, if any.
    func remove(_ id: ObjectIdentifier) {}

    var isDispatching: Bool { false }

    /// Flags this list's dispatches in flight, if any (``PinnedArray/flagDispatches()``).
    func flagDispatches() {}
}

/// One message's list of responders, in registration order, whatever the message's signature: the storage of
/// ``ClosureTableMultiplexer`` and ``SelectorDictionaryMultiplexer``, whose lists of different signatures share one
/// table and one dispatch (`Dispatch.swift`). The message's signature is known where a handler is
/// bound (``bind(_:to:id:in:forwarding:)``) and where `forward` calls it (``forward(_:to:into:boxing:boxedType:)``).
///
/// A list, once made, stays in its storage's table for the storage's lifetime (removing a target removes its
/// entry, never the list), so a dispatch may read it unretained while its storage's caller holds the storage.
@usableFromInline
internal final class ResponderList<Target>: AnyResponderList, PinnedArrayOwner {
    /// Pinned and read in place by dispatches; every other access is instantaneous: no dynamic exclusivity check.
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline var pinned = PinnedArray<Handler>()

    /// One responder and, in a storage that forwards, the closure bound to it, which `forward` calls.
    @frozen @usableFromInline
    internal struct Handler {
        @usableFromInline let id: ObjectIdentifier
        /// The target, held strongly.
        @usableFromInline var target: Target  // `var` only to be lent in place (`lend`); written by `init` alone
        /// The bound closure, an `ImmutableBox` of the message's `(Arguments) -> Result`, or `nil` in a storage that
        /// does not forward: an object, so that a call borrows it from the pinned buffer instead of copying it out.
        @usableFromInline let bound: AnyObject?

        @usableFromInline @_alwaysEmitIntoClient
        init(id: ObjectIdentifier, target: Target, bound: AnyObject?) {
            self.id = id
            self.target = target
            self.bound = bound
        }
    }

    @usableFromInline
    override init() {}

    /// Removes the handler of the target whose identity is `id`, if any, releasing it once the list's access has
    /// ended. Its target is not freed here: whoever removes a target holds it (`unbind`'s argument).
    override func remove(_ id: ObjectIdentifier) {
        _ = pinned.removeHandler(for: id)
    }

    override var isDispatching: Bool { pinned.isDispatching }

    override func flagDispatches() { pinned.flagDispatches() }

    /// `list`, a list of this target type, as what it is.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    static func typed(_ list: Unmanaged<AnyResponderList>) -> Unmanaged<ResponderList> {
        assert(list._withUnsafeGuaranteedRef { $0 is ResponderList }, "a list of another target type")
        return Unmanaged<ResponderList>.fromOpaque(list.toOpaque())
    }
}

extension PinnedArray {
    /// Removes the handler for the target whose identity is `id` and returns it; `nil` when there is none.
    fileprivate mutating func removeHandler<Target>(for id: ObjectIdentifier) -> Element?
    where Element == ResponderList<Target>.Handler {
        let found = elements.withUnsafeBufferPointer { buffer in buffer.indices.first { buffer[$0].id == id } }
        guard let index = found else { return nil }
        return modify { $0.remove(at: index) }
    }
}

extension ResponderList {
    /// The closure that sends `message` to `target`, which `forward` calls, in an object: made by the descriptor (a
    /// `withBoundCall` closure is user code), so before the multiplexer's state is opened for the handler.
    static func bound<M: MessageProtocol>(_ message: M, to target: Target) -> AnyObject
    where M.Schema.Target == Target {
        ImmutableBox(message.bound(to: target))
    }

    /// Appends the handler of `target`, with `bound` (``bound(_:to:)``) or none, to the list in `slot`, creating the
    /// list if the slot is empty; answers whether it created it.
    ///
    /// - Precondition: A filled slot holds this message's list: a schema has one descriptor per message, checked when
    ///   its first multiplexer is made (``SchemaInfo``).
    static func bind(
        _ target: Target, id: ObjectIdentifier, bound: AnyObject?, in slot: inout AnyResponderList?
    ) -> Bool {
        let list: ResponderList
        let isNew = slot == nil
        if let existing = slot {
            list = unsafeDowncast(existing, to: ResponderList.self)
        } else {
            list = ResponderList()
            slot = list
        }
        list.pinned.modify { $0.append(Handler(id: id, target: target, bound: bound)) }
        return isNew
    }

    /// The handlers of a list as a dispatch reads them, pinned.
    @usableFromInline
    typealias PinnedHandlers = UnsafeBufferPointer<Handler>

    /// `forward`'s call of the bound closure of the handler at `index` of the pinned `handlers`, which keep the
    /// closure's object alive: it is borrowed, not retained.
    ///
    /// - Precondition: The list is a forwarding storage's, for a message of `(Arguments) -> Result`.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    static func call<Arguments, Result>(_ handlers: PinnedHandlers, at index: Int, with arguments: Arguments) -> Result
    {
        Unmanaged.passUnretained(
            unsafeDowncast(handlers[index].bound.unsafelyUnwrapped, to: ImmutableBox<(Arguments) -> Result>.self)
        )._withUnsafeGuaranteedRef { $0.value(arguments) }
    }

    /// `forward`'s delivery: calls every closure of `handlers` (the list of a message of `(Arguments) -> Result`) with
    /// `arguments`, without stopping early, and makes `answers` their answers, each boxed by `box` as a `Boxed` or
    /// `nil`. When nothing else holds the `answers` of an earlier call, their storage is reused through
    /// the layout of `Any` (`ExistentialLayout.swift`).
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    static func forward<Arguments, Result, Boxed>(
        _ arguments: Arguments, to handlers: AnyObject?, into answers: inout [Any?], boxing box: (Result) -> Any?,
        boxedType: Boxed.Type
    ) {
        // Pinned, as for a dispatch: the callbacks may change the list.
        let list = handlers.map { typed(.passUnretained(unsafeDowncast($0, to: AnyResponderList.self))) }
        let pinned = list.map { $0.beginDispatch() }
        defer { if let list, !list.endDispatchUnchanged() { _ = list.endDispatchAfterChange() } }
        let pinnedHandlers = pinned ?? PinnedHandlers(start: nil, count: 0)
        let count = pinnedHandlers.count
        var index = 0
        if answers.canReuseStorage() {
            let old = answers.count
            answers.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer.baseAddress!
                while index < Swift.min(old, count) {
                    (slots + index).destroyAnswer(skipping: boxedType)
                    (slots + index).initializeAnswer(
                        to: Self.call(pinnedHandlers, at: index, with: arguments) as Result, boxing: box,
                        boxedType: boxedType)
                    index &+= 1
                }
                var spare = count
                while spare < old {
                    (slots + spare).destroyAnswer(skipping: boxedType)
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
                answers.append(box(Self.call(pinnedHandlers, at: index, with: arguments) as Result))
                index &+= 1
            }
        }
    }
}

/// A list strategy (`closureTable`, `selectorDictionary`): a ``SingleThreadedStrategy`` whose messages' responders are
/// in its core's lists, one ``ResponderList`` per message. A dispatch pins only its message's list: a dispatch is
/// in flight when some list is pinned, and a change deferred during dispatches flags the lists in flight.
extension SingleThreadedStrategy where Registration == Void {
    /// Registers `target` strongly in the list of each message it responds to; registering it again does nothing.
    /// With `forwarding`, binds the closure that `forward` calls to each of its handlers; `listMade` is told of each
    /// list made.
    @inline(__always)
    func bind(
        _ target: Schema.Target, forwarding: Bool, listMade: (_ ordinal: Int, AnyResponderList) -> Void
    ) {
        announcingChanges { bindNow(target, forwarding: forwarding, listMade: listMade) }
    }

    @inline(__always)
    private func bindNow(
        _ target: Schema.Target, forwarding: Bool, listMade: (_ ordinal: Int, AnyResponderList) -> Void
    ) {
        confined {
            let id = Schema.identity(of: target)
            guard !core.table.contains(id),
                let messages = RegistrationTable<Schema, Void>.responses(of: target, id: id, addingTo: self)
            else { return }
            // The closures `forward` calls are made first, before anything changes: a `withBoundCall` closure is user
            // code. On the stack, in the messages' order, which is their ordinals'.
            let capacity = forwarding ? messages.bits.nonzeroBitCount : 0
            withUnsafeTemporaryAllocation(of: AnyObject?.self, capacity: capacity) { closures in
                if forwarding {
                    // As a step of this `add`, as `responds(to:)` was: a maker that adds the target does nothing.
                    let madeAll: Void? = RegistrationTable<Schema, Void>.whileAdding(target: id, to: self) {
                        var made = 0
                        for message in SchemaInfo<Schema>.shared.messages where messages.contains(message.key) {
                            closures.initializeElement(at: made, to: ResponderList.bound(message, to: target))
                            made += 1
                        }
                    }
                    guard madeAll != nil else { return }  // this thread is adding it already: `responses` said so
                }
                core.table.append((), id: id, messages: messages)
                var bits = messages.bits
                var next = 0
                while bits != 0 {
                    let ordinal = bits.trailingZeroBitCount
                    let bound = forwarding ? closures.moveElement(from: next) : nil
                    if ResponderList.bind(target, id: id, bound: bound, in: &core.lists[ordinal]),
                        let list = core.lists[ordinal]
                    {
                        listMade(ordinal, list)
                    }
                    next += 1
                    bits &= bits &- 1
                }
            }
        }
    }

    /// Unregisters `target`, taking it out of its lists.
    @inline(__always)
    func unbind(_ target: Schema.Target) {
        announcingChanges { unbindNow(target) }
    }

    @inline(__always)
    private func unbindNow(_ target: Schema.Target) {
        confined {
            guard let entry = core.table.remove(Schema.identity(of: target)) else { return }
            var bits = entry.messages.bits  // by ordinal
            while bits != 0 {
                // Outside the core's access: the handler's closure, released here, may hold what is the user's.
                core.list(at: bits.trailingZeroBitCount)?._withUnsafeGuaranteedRef { $0.remove(entry.id) }
                bits &= bits &- 1
            }
        }
    }

    @inline(__always)
    var registeredCount: Int { confined { core.table.count } }

    @inline(__always)
    func anyResponds(to key: Schema.Key) -> Bool { confined { core.table.responds(to: key) } }
}
