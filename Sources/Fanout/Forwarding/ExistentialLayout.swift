/// What `forward` relies on about an `Any`'s layout, checked once at run time: three words of inline buffer,
/// then the type metadata of the value it holds. A value whose type fits the buffer (at most three words,
/// word-aligned, bitwise takable) is stored in it as it is; a `nil` `Any?` has a null metadata pointer. When a
/// check fails, every use falls back to what the language guarantees (`as?`, the value witnesses).
@usableFromInline
internal enum ExistentialLayout {
    /// The byte offset of the type metadata in an `Any`.
    @usableFromInline
    internal static let metadataOffset = 3 * MemoryLayout<UnsafeRawPointer>.size

    /// Whether `Any` and `Any?` are laid out as described above; `false`, unprobed, off the layout fast paths.
    @usableFromInline
    internal static let isKnown: Bool = {
        guard usesLayoutFastPaths,
            MemoryLayout<Any>.size == metadataOffset + MemoryLayout<UnsafeRawPointer>.size,
            MemoryLayout<Any?>.size == MemoryLayout<Any>.size,
            MemoryLayout<Any?>.stride == MemoryLayout<Any>.stride
        else { return false }
        let word = 0x5eed_f00d
        let object = ImmutableBox(0)
        let none = words(of: nil)
        let some = words(of: ())
        let integer = words(of: word)
        let reference = words(of: object)
        return none[3] == 0 && some[3] != 0
            && integer[3] == identity(of: Int.self) && integer[0] == UInt(word)
            && reference[3] == identity(of: ImmutableBox<Int>.self)
            && reference[0] == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }()

    /// The four words of an `Any?` holding `value`, read through a typed pointer, which does not open it.
    private static func words(of value: Any?) -> [UInt] {
        let slot = UnsafeMutablePointer<Any?>.allocate(capacity: 1)
        slot.initialize(to: value)
        defer { slot.deinitialize(count: 1).deallocate() }
        return (0..<4).map {
            UnsafeRawPointer(slot).load(fromByteOffset: $0 * MemoryLayout<UInt>.stride, as: UInt.self)
        }
    }

    /// The metadata pointer of `type`, as an `Any` holding a `type` stores it.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static func identity<T>(of type: T.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type))
    }

    /// Whether an `Any` holding a `T` holds it in its inline buffer.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal static func storesInline<T>(_ type: T.Type) -> Bool {
        MemoryLayout<T>.size <= metadataOffset && MemoryLayout<T>.alignment <= MemoryLayout<UnsafeRawPointer>.alignment
            && _isBitwiseTakable(T.self)
    }
}

/// The argument at `position` as a `T` when its dynamic type is exactly `T` (the usual argument), without the
/// search of conformances and superclasses that `as?` runs; `nil` otherwise. A `T` that an `Any` stores inline
/// is loaded straight from the array's storage when the metadata word is `T`'s; other types are opened.
@usableFromInline @_alwaysEmitIntoClient
@inline(__always)
internal func exactly<T>(_ values: [Any], at position: Int, as type: T.Type) -> T? {
    if ExistentialLayout.storesInline(T.self) && ExistentialLayout.isKnown {
        return values.withUnsafeBufferPointer { buffer in
            let slot = UnsafeRawPointer(buffer.baseAddress! + position)
            guard
                slot.load(fromByteOffset: ExistentialLayout.metadataOffset, as: UInt.self)
                    == ExistentialLayout.identity(of: T.self)
            else { return nil }
            return slot.load(as: T.self)
        }
    }
    let value = values[position]
    guard Swift.type(of: value) == T.self else { return nil }
    func take<Opened>(_ opened: Opened) -> T { unsafeBitCast(opened, to: T.self) }
    return _openExistential(value, do: take)
}
