/// The type-erased face of one message's closure list, so that lists for
/// messages of different signatures can share one table.
@usableFromInline
internal class ClosureListBase {
    @usableFromInline
    init() {}

    func removeClosure(for id: ObjectIdentifier) {}
}

/// The closures bound for one message, in registration order: the storage of
/// ``ClosureTableStorage`` (indexed by message ordinal) and
/// ``SelectorDictionaryStorage`` (keyed by selector).
@usableFromInline
internal final class ClosureList<Arguments, Result>: ClosureListBase {
    /// Dispatch copies it out in one instantaneous read, so it needs no dynamic
    /// exclusivity check.
    @exclusivity(unchecked) @usableFromInline
    var closures = IdentifiedList<(Arguments) -> Result>()

    @usableFromInline
    override init() {}

    override func removeClosure(for id: ObjectIdentifier) {
        closures.remove(id)
    }

    /// Appends the closure that sends `message` to `target` to the list in
    /// `slot`, creating the list if the slot is empty.
    ///
    /// - Precondition: The slot, if filled, holds the list for a descriptor of
    ///   the same signature (a schema lists one descriptor per message).
    static func bind<M: MessageProtocol>(
        _ message: M, to target: M.Schema.Target, id: ObjectIdentifier, in slot: inout ClosureListBase?
    ) where M.Arguments == Arguments, M.Result == Result {
        let list: ClosureList
        if let existing = slot {
            guard let typed = existing as? ClosureList else {
                preconditionFailure("\(M.Schema.self) lists two descriptors for '\(message.key.rawValue)' with different types")
            }
            list = typed
        } else {
            list = ClosureList()
            slot = list
        }
        list.closures.append(message.bound(to: target), for: id)
    }

    /// The closures of the list in `slot`, in registration order: a snapshot
    /// that later mutations cannot change. `nil` when the slot is empty.
    ///
    /// Dispatch takes the snapshot in a statement of its own, so that nothing
    /// holds the list itself while the closures run: the snapshot keeps them
    /// alive, and one retain per message is saved (measured). A single helper
    /// taking the slot and delivering would keep its argument, the list,
    /// alive across the calls: the gate counted the retain back.
    ///
    /// - Precondition: `slot` was filled by ``bind(_:to:id:in:)`` with this
    ///   signature (checked in debug builds).
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    static func snapshot(of slot: ClosureListBase?) -> Snapshot? {
        guard let slot else { return nil }
        return unsafeDowncast(slot, to: ClosureList.self).closures.entries
    }

    /// The closures of one list as dispatch iterates them.
    @usableFromInline
    typealias Snapshot = ContiguousArray<IdentifiedList<(Arguments) -> Result>.Entry>

    /// Calls the closures of `snapshot`, in order, for as long as
    /// `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*r*) in the closures of the snapshot.
    @inlinable
    @inline(__always)
    static func deliver(_ arguments: Arguments, to snapshot: Snapshot, while shouldContinue: (Result) -> Bool) {
        // Indexing the array: iterating its buffer through an unsafe pointer
        // instead makes the optimizer retain and release every closure, and a
        // `for … in` that can return early re-reads the count on every turn
        // (both measured; the gate pins this loop).
        let count = snapshot.count
        var index = 0
        while index < count {
            guard shouldContinue(snapshot[index].value(arguments)) else { return }
            index &+= 1
        }
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
    /// - Complexity: O(*r* + *o*) for *r* closures and *o* old answers.
    @inlinable
    @inline(__always)
    static func forward<Boxed>(
        _ arguments: Arguments, to handlers: AnyObject?, into answers: inout [Any?], boxing box: (Result) -> Any?,
        boxedType: Boxed.Type
    ) {
        let snapshot = snapshot(of: handlers.map { unsafeDowncast($0, to: ClosureListBase.self) }) ?? []
        let count = snapshot.count
        var index = 0
        if ReusedAnswers.canReuse(&answers) {
            let old = answers.count
            answers.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer.baseAddress!
                while index < Swift.min(old, count) {
                    ReusedAnswers.destroy(slots + index, skipping: boxedType)
                    ReusedAnswers.initialize(
                        slots + index, to: snapshot[index].value(arguments), boxing: box, boxedType: boxedType)
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
                answers.append(box(snapshot[index].value(arguments)))
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
            && metadata == ExistentialLayout.identity(of: Trivial.self) { return }
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
        guard ExistentialLayout.isKnown && Answer.self == Boxed.self && _isPOD(Answer.self)
            && ExistentialLayout.storesInline(Answer.self) else {
            return slot.initialize(to: box(answer))
        }
        let raw = UnsafeMutableRawPointer(slot)
        raw.storeBytes(of: answer, as: Answer.self)
        raw.storeBytes(of: ExistentialLayout.identity(of: Answer.self), toByteOffset: ExistentialLayout.metadataOffset, as: UInt.self)
    }
}
