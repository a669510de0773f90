/// The name of one message of a delegate protocol: an enumeration whose raw value is the message's Objective-C
/// selector.
///
/// ```swift
/// enum LifecycleMessage: String, MessageKey {
///     case viewDidAppear = "viewDidAppear:", viewDidDisappear = "viewDidDisappear:"
/// }
/// ```
///
/// Multiplexers index their tables by ``ordinal``, the key's position in `allCases`
/// (<doc:ReusingForYourProtocol>).
public protocol MessageKey: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String {
    /// The position of this key in `allCases`, in `0 ..< 64`; Fanout checks it once per schema, in every build.
    ///
    /// - Complexity: O(1) for an enumeration without associated values; O(*k*) for *k* cases otherwise, unless
    ///   the conforming type implements it.
    var ordinal: Int { get }
}

extension MessageKey {
    /// The position of this key in `allCases`: for a trivial key of one byte or none (an enumeration without
    /// associated values), its stored case index, which is also the order of a synthesized `allCases`; for any
    /// other type, found by a search. A key whose `allCases` is in another order must implement `ordinal`.
    ///
    /// - Complexity: O(1) for an enumeration without associated values, O(*k*) for *k* cases otherwise.
    @_alwaysEmitIntoClient
    public var ordinal: Int {
        @inline(__always) get {
            // The case index, in declaration order (one byte for 2 to 256 cases): the Swift ABI on every platform
            // (docs/ABI/TypeLayout.rst), checked once per schema in every build (`SchemaInfo`), so that a key laid
            // out any other way is refused, never misread. Not behind the portable-path switch: the search allocates.
            if _isPOD(Self.self) && MemoryLayout<Self>.size == 1 {
                return Int(unsafeBitCast(self, to: UInt8.self))
            }
            if _isPOD(Self.self) && MemoryLayout<Self>.size == 0 { return 0 }
            return searchedOrdinal
        }
    }

    /// The position of this key in `allCases`, searched for; out of line, so that the fast path inlines as one load.
    @usableFromInline @inline(never)
    internal var searchedOrdinal: Int {
        var position = 0
        for key in Self.allCases {
            if key == self { return position }
            position += 1
        }
        preconditionFailure("\(self) is not among \(Self.self).allCases")
    }

    /// The key whose raw value is `selector`, or `nil` when the protocol has no such message.
    ///
    /// - Complexity: O(*k*), where *k* is the number of cases.
    @_alwaysEmitIntoClient
    public init?(selector: String) {
        self.init(rawValue: selector)
    }
}

extension MessageKey {
    /// ``ordinal``, as a delivery reads it: a one-byte key's case index, loaded in place, so that a key known where a
    /// message is sent folds into a constant; any other key's `ordinal`. The schema's check proved them equal. Not
    /// `ordinal` itself: a derived conformance's witness would be called per message.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal var caseIndex: Int {
        if _isPOD(Self.self) && MemoryLayout<Self>.size == 1 { return Int(unsafeBitCast(self, to: UInt8.self)) }
        if _isPOD(Self.self) && MemoryLayout<Self>.size == 0 { return 0 }
        return ordinal
    }
}
