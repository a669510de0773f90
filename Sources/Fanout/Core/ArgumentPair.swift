// Safety: a message of two to four arguments is delivered with its arguments apart by reinterpreting an
// `ApartBody` (below), which relies on every `ApartBody` having one layout, and on closures being copied and
// destroyed alike, whatever their function type: a layout fast path (`Documentation/Portability.md`); without it
// the arguments travel as their tuple. The arguments are the caller's parameters, borrowed for the whole delivery;
// targets are kept alive as for any other message (the pinned buffer, the snapshot, the weak load's reference).

/// A closure kept in a struct of one stored property of the closure's own generic type, so that an `ApartBody` of
/// one function type has the words of an `ApartBody` of any other. A ``Message`` keeps the body taking its arguments
/// apart, an `ApartBody<(Target, A, B) -> Result>`, as an `ApartBody<(Target, Arguments) -> Result>`, a type it can
/// name; the delivery, where `A` and `B` are known again, reinterprets it as the type it was made as. A bare
/// function value would not do: wherever it is stored, returned or passed as a generic value it may be
/// reabstracted, and a reabstraction thunk's words are not the body's.
@frozen @usableFromInline
internal struct ApartBody<Body> {
    @usableFromInline let body: Body

    @usableFromInline @_alwaysEmitIntoClient
    init(_ body: Body) { self.body = body }
}

extension Message {
    /// `body` as the words the descriptor keeps (see the top of this file); `nil` off the layout fast paths.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal static func pairForm<First, Second>(
        of body: @escaping (Schema.Target, First, Second) -> Result
    ) -> ApartBody<(Schema.Target, Arguments) -> Result>? where Arguments == (First, Second) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(ApartBody(body), to: ApartBody<(Schema.Target, Arguments) -> Result>.self)
    }

    /// The body taking the two arguments apart, if this message has one.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func pairBody<First, Second>() -> ((Schema.Target, First, Second) -> Result)?
    where Arguments == (First, Second) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: ApartBody<(Schema.Target, First, Second) -> Result>.self).body
    }

    /// `body`, of three arguments, as the words the descriptor keeps; `nil` off the layout fast paths.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal static func apartForm<A, B, C>(
        of body: @escaping (Schema.Target, A, B, C) -> Result
    ) -> ApartBody<(Schema.Target, Arguments) -> Result>? where Arguments == (A, B, C) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(ApartBody(body), to: ApartBody<(Schema.Target, Arguments) -> Result>.self)
    }

    /// `body`, of four arguments, as the words the descriptor keeps; `nil` off the layout fast paths.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal static func apartForm<A, B, C, D>(
        of body: @escaping (Schema.Target, A, B, C, D) -> Result
    ) -> ApartBody<(Schema.Target, Arguments) -> Result>? where Arguments == (A, B, C, D) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(ApartBody(body), to: ApartBody<(Schema.Target, Arguments) -> Result>.self)
    }

    /// The body taking the three arguments apart, if this message has one.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func apartBody<A, B, C>() -> ((Schema.Target, A, B, C) -> Result)? where Arguments == (A, B, C) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: ApartBody<(Schema.Target, A, B, C) -> Result>.self).body
    }

    /// The body taking the four arguments apart, if this message has one.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func apartBody<A, B, C, D>() -> ((Schema.Target, A, B, C, D) -> Result)?
    where Arguments == (A, B, C, D) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: ApartBody<(Schema.Target, A, B, C, D) -> Result>.self).body
    }
}
