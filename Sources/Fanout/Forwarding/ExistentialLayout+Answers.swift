/// The reuse of `forward`'s answers array, through the layout: an old answer is destroyed as an `Any`, not through
/// the generic value witnesses of `Any?`, and one of the trivial type the new answers have is not destroyed at all.
extension ExistentialLayout {
    /// Whether `answers` may be written in place: the layout is known and nothing else holds its storage (an array
    /// is one reference to its storage object here; the empty array's shared storage is never unique).
    @usableFromInline @_alwaysEmitIntoClient
    internal static func canReuse(_ answers: inout [Any?]) -> Bool {
        guard isKnown, MemoryLayout<[Any?]>.size == MemoryLayout<AnyObject>.size else { return false }
        return withUnsafeMutablePointer(to: &answers) { array in
            UnsafeMutableRawPointer(array).withMemoryRebound(to: AnyObject.self, capacity: 1) {
                isKnownUniquelyReferenced(&$0.pointee)
            }
        }
    }

    /// Destroys the answer at `slot`, leaving it uninitialized; one of the trivial type `Trivial` (`Void`, `Bool`)
    /// is left as it is, so that a message answered again is overwritten without a call per answer.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static func destroy<Trivial>(_ slot: UnsafeMutablePointer<Any?>, skipping trivial: Trivial.Type) {
        let raw = UnsafeMutableRawPointer(slot)
        let metadata = raw.load(fromByteOffset: metadataOffset, as: UInt.self)
        guard metadata != 0 else { return }
        if _isPOD(Trivial.self) && storesInline(Trivial.self)
            && metadata == identity(of: Trivial.self)
        {
            return
        }
        raw.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
    }

    /// Writes `answer`, boxed by `box`, to the uninitialized `slot`. An answer boxed as it is, of a trivial type
    /// stored inline (`Void`, `Bool`), is written as its bytes and its type's metadata.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static func initialize<Answer, Boxed>(
        _ slot: UnsafeMutablePointer<Any?>, to answer: Answer, boxing box: (Answer) -> Any?, boxedType: Boxed.Type
    ) {
        guard
            isKnown && Answer.self == Boxed.self && _isPOD(Answer.self)
                && storesInline(Answer.self)
        else {
            return slot.initialize(to: box(answer))
        }
        let raw = UnsafeMutableRawPointer(slot)
        raw.storeBytes(of: answer, as: Answer.self)
        raw.storeBytes(
            of: identity(of: Answer.self), toByteOffset: metadataOffset,
            as: UInt.self)
    }
}
