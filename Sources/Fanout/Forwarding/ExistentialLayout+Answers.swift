// The reuse of `forward`'s answers array, through the layout (`ExistentialLayout.swift`): an old answer is destroyed
// as an `Any`, not through the generic value witnesses of `Any?`, and one of the trivial type the new answers have is
// not destroyed at all.

extension Array where Element == Any? {
    /// Whether these answers may be written in place: the layout is known and nothing else holds the array's storage
    /// (an array is one reference to its storage object here; the empty array's shared storage is never unique).
    @usableFromInline @_alwaysEmitIntoClient
    internal mutating func canReuseStorage() -> Bool {
        guard anyLayoutIsKnown, MemoryLayout<[Any?]>.size == MemoryLayout<AnyObject>.size else { return false }
        return withUnsafeMutablePointer(to: &self) { array in
            UnsafeMutableRawPointer(array).withMemoryRebound(to: AnyObject.self, capacity: 1) {
                isKnownUniquelyReferenced(&$0.pointee)
            }
        }
    }
}

extension UnsafeMutablePointer where Pointee == Any? {
    /// Destroys the answer here, leaving it uninitialized; one of the trivial type `Trivial` (`Void`, `Bool`)
    /// is left as it is, so that a message answered again is overwritten without a call per answer.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func destroyAnswer<Trivial>(skipping trivial: Trivial.Type) {
        let raw = UnsafeMutableRawPointer(self)
        let metadata = raw.load(fromByteOffset: anyMetadataOffset, as: UInt.self)
        guard metadata != 0 else { return }
        if _isPOD(Trivial.self) && MemoryLayout<Trivial>.isInlineInAny && metadata == MemoryLayout<Trivial>.anyMetadata
        {
            return
        }
        raw.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
    }

    /// Writes `answer`, boxed by `box`, here, where nothing is initialized. An answer boxed as it is, of a trivial type
    /// stored inline (`Void`, `Bool`), is written as its bytes and its type's metadata.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func initializeAnswer<Answer, Boxed>(
        to answer: Answer, boxing box: (Answer) -> Any?, boxedType: Boxed.Type
    ) {
        guard anyLayoutIsKnown && Answer.self == Boxed.self && _isPOD(Answer.self) && MemoryLayout<Answer>.isInlineInAny
        else {
            return initialize(to: box(answer))
        }
        let raw = UnsafeMutableRawPointer(self)
        raw.storeBytes(of: answer, as: Answer.self)
        raw.storeBytes(of: MemoryLayout<Answer>.anyMetadata, toByteOffset: anyMetadataOffset, as: UInt.self)
    }
}
