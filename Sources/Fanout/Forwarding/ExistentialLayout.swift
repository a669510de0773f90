// What `forward` relies on about an `Any`'s layout, checked once at run time (`anyLayoutIsKnown`): three words of
// inline buffer, then the type metadata of the value it holds. A value whose type fits the buffer (at most three
// words, word-aligned, bitwise takable) is stored in it as it is; a `nil` `Any?` has a null metadata pointer. When a
// check fails, every use falls back to what the language guarantees (`as?`, the value witnesses).

/// The byte offset of the type metadata in an `Any`.
@usableFromInline
internal let anyMetadataOffset = 3 * MemoryLayout<UnsafeRawPointer>.size

/// Whether `Any` and `Any?` are laid out as described at the top of this file; `false`, unprobed, off the
/// layout fast paths.
@usableFromInline
internal let anyLayoutIsKnown: Bool = {
    guard usesLayoutFastPaths,
        MemoryLayout<Any>.size == anyMetadataOffset + MemoryLayout<UnsafeRawPointer>.size,
        MemoryLayout<Any?>.size == MemoryLayout<Any>.size,
        MemoryLayout<Any?>.stride == MemoryLayout<Any>.stride
    else { return false }
    let word = 0x5eed_f00d
    let object = ImmutableBox(0)
    let none = anyWords(of: nil)
    let some = anyWords(of: ())
    let integer = anyWords(of: word)
    let reference = anyWords(of: object)
    return none[3] == 0 && some[3] != 0
        && integer[3] == MemoryLayout<Int>.anyMetadata && integer[0] == UInt(word)
        && reference[3] == MemoryLayout<ImmutableBox<Int>>.anyMetadata
        && reference[0] == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
}()

/// The four words of an `Any?` holding `value`, read through a typed pointer, which does not open it.
private func anyWords(of value: Any?) -> [UInt] {
    let slot = UnsafeMutablePointer<Any?>.allocate(capacity: 1)
    slot.initialize(to: value)
    defer { slot.deinitialize(count: 1).deallocate() }
    return (0..<4).map {
        UnsafeRawPointer(slot).load(fromByteOffset: $0 * MemoryLayout<UInt>.stride, as: UInt.self)
    }
}

extension MemoryLayout {
    /// The metadata pointer of `T`, as an `Any` holding a `T` stores it.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static var anyMetadata: UInt {
        UInt(bitPattern: ObjectIdentifier(T.self))
    }

    /// Whether an `Any` holding a `T` holds it in its inline buffer.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static var isInlineInAny: Bool {
        size <= anyMetadataOffset && alignment <= MemoryLayout<UnsafeRawPointer>.alignment && _isBitwiseTakable(T.self)
    }
}

/// The argument at `position` as a `T` when its dynamic type is exactly `T` (the usual argument), without the
/// search of conformances and superclasses that `as?` runs; `nil` otherwise. A `T` that an `Any` stores inline
/// is loaded straight from the array's storage when the metadata word is `T`'s; other types are opened.
@usableFromInline @_alwaysEmitIntoClient
@inline(__always)
internal func exactly<T>(_ values: [Any], at position: Int, as type: T.Type) -> T? {
    if MemoryLayout<T>.isInlineInAny && anyLayoutIsKnown {
        return values.withUnsafeBufferPointer { buffer in
            let slot = UnsafeRawPointer(buffer.baseAddress! + position)
            guard
                slot.load(fromByteOffset: anyMetadataOffset, as: UInt.self) == MemoryLayout<T>.anyMetadata
            else { return nil }
            return slot.load(as: T.self)
        }
    }
    let value = values[position]
    guard Swift.type(of: value) == T.self else { return nil }
    func take<Opened>(_ opened: Opened) -> T { unsafeBitCast(opened, to: T.self) }
    return _openExistential(value, do: take)
}
