/// The name of one message of a delegate protocol: an enumeration whose raw
/// value is the Objective-C selector of the message.
///
/// Multiplexers index their tables by ``ordinal``, the position of the key in
/// `allCases`, so a conforming enumeration with many messages should implement
/// it with a `switch` rather than rely on the linear default.
public protocol MessageKey: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String {
    /// The position of this key in `allCases`, in `0 ..< 64`.
    ///
    /// - Complexity: O(1) when implemented by the conforming type; the default
    ///   is O(*k*) where *k* is the number of cases.
    var ordinal: Int { get }
}

extension MessageKey {
    /// The position of this key in `allCases`, found by a linear search.
    ///
    /// - Complexity: O(*k*), where *k* is the number of cases.
    @inlinable
    public var ordinal: Int {
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
