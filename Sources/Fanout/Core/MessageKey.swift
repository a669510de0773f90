/// The name of one message of a delegate protocol: an enumeration whose raw
/// value is the Objective-C selector of the message.
///
/// ```swift
/// enum LifecycleMessage: String, MessageKey {
///     case viewDidAppear = "viewDidAppear:", viewDidDisappear = "viewDidDisappear:"
/// }
/// ```
///
/// Multiplexers index their tables by ``ordinal``, the position of the key in
/// `allCases`. An enumeration without associated values gets it in O(1)
/// from its case's position in the declaration; a `switch` is faster still
/// in the closure strategies, where the optimizer folds it to a constant
/// (`Documentation/ReusingForYourProtocol.md`).
public protocol MessageKey: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String {
    /// The position of this key in `allCases`, in `0 ..< 64`.
    ///
    /// Fanout checks, once per schema and in every build, that each key's
    /// ordinal is its position, and refuses the schema otherwise.
    ///
    /// - Complexity: O(1) for an enumeration without associated values;
    ///   O(*k*) for *k* cases otherwise, unless the conforming type
    ///   implements it.
    var ordinal: Int { get }
}

extension MessageKey {
    /// The position of this key in `allCases`.
    ///
    /// An enumeration without associated values is stored as the position of
    /// its case in the declaration (one byte for 2 to 256 cases, none for
    /// one), which is also the order of a synthesized `allCases`: that byte is
    /// taken as the ordinal for any trivial key of one byte or none. Any other
    /// type is searched for in `allCases`. A key whose `allCases` is written
    /// in another order must implement `ordinal`. Either way
    /// the answer is checked against `allCases` once per schema, before a
    /// multiplexer uses it.
    ///
    /// - Complexity: O(1) for an enumeration without associated values,
    ///   O(*k*) for *k* cases otherwise.
    @inlinable
    public var ordinal: Int {
        @inline(__always) get {
            // An enumeration without payloads stores the index of its case in
            // declaration order, in one byte for 2 to 256 cases: the Swift ABI
            // on every platform (docs/ABI/TypeLayout.rst), and checked once per
            // schema, in every build (`SchemaInfo`), so a key laid out any
            // other way is refused, never misread. Not a portable-path switch
            // (Documentation/Portability.md): the search would cost a thousand
            // instructions and an allocation per message.
            if _isPOD(Self.self) && MemoryLayout<Self>.size == 1 {
                return Int(unsafeBitCast(self, to: UInt8.self))
            }
            if _isPOD(Self.self) && MemoryLayout<Self>.size == 0 { return 0 }
            return searchedOrdinal
        }
    }

    /// The position of this key in `allCases`, found by a linear search; out
    /// of line, so that the constant-time path inlines as one load.
    @usableFromInline @inline(never)
    internal var searchedOrdinal: Int {
        var position = 0
        for key in Self.allCases {
            if key == self { return position }
            position += 1
        }
        preconditionFailure("\(self) is not among \(Self.self).allCases")
    }

    /// The key whose raw value is `selector`, or `nil` when the protocol has
    /// no such message.
    ///
    /// - Complexity: O(*k*), where *k* is the number of cases.
    @inlinable
    public init?(selector: String) {
        self.init(rawValue: selector)
    }
}
