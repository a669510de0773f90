// A message of two, three or four arguments, delivered with its arguments apart.
//
// Glue that builds the tuple of such a message from its method's parameters copies each reference into it: a
// retain and a release per message. With the arguments passed apart, a delivery carries them to each call
// in the non-escaping closures of its loop and calls the descriptor's two-argument body: nothing is copied.
//
// A `Message` names only its `Arguments`, the tuple, not the two types in it, so it keeps the two-argument body
// as the words of a struct of one closure whose type it can name (`PairSlot`); the delivery, where both types
// are known again, reinterprets them as the `PairBody` they are. A layout-dependent fast path
// (`Documentation/Portability.md`): it relies on two structs of one closure each having the same layout,
// whatever their generic types, and on a closure being copied and destroyed the same way in both. Without it
// (`usesLayoutFastPaths` false) the descriptor has no two-argument body and the arguments travel as
// their tuple.
//
// Safety: the arguments are the caller's parameters, borrowed for the whole delivery; targets are kept alive as
// for any other message (the pinned buffer, the snapshot, the weak load's reference).

/// The body of a two-argument message, taking the arguments apart.
@frozen @usableFromInline
internal struct PairBody<Target, First, Second, Result> {
    @usableFromInline let body: (Target, First, Second) -> Result

    @inlinable
    init(_ body: @escaping (Target, First, Second) -> Result) { self.body = body }
}

/// The body of a three-argument message, taking the arguments apart.
@frozen @usableFromInline
internal struct TripleBody<Target, A, B, C, Result> {
    @usableFromInline let body: (Target, A, B, C) -> Result

    @inlinable
    init(_ body: @escaping (Target, A, B, C) -> Result) { self.body = body }
}

/// The body of a four-argument message, taking the arguments apart.
@frozen @usableFromInline
internal struct QuadBody<Target, A, B, C, D, Result> {
    @usableFromInline let body: (Target, A, B, C, D) -> Result

    @inlinable
    init(_ body: @escaping (Target, A, B, C, D) -> Result) { self.body = body }
}

/// Where a ``Message`` keeps the ``PairBody`` of a two-argument message (or the ``TripleBody`` or ``QuadBody`` of a
/// three- or four-argument one): a struct of one closure, as `PairBody`
/// is, whose type names only the message's own generic types. Both keep their closure at their own generic
/// abstraction whatever the types, so one's words are the other's. A bare function value would not do: it may
/// be reabstracted (a thunk made around it) wherever it is stored, returned or passed as a generic value.
@frozen @usableFromInline
internal struct PairSlot<Target, Arguments, Result> {
    @usableFromInline let words: (Target, Arguments) -> Result
}

extension Message {
    /// The ``PairBody`` of `body`, in a ``PairSlot`` (see the top of this file); `nil` off the layout fast paths.
    @inlinable @inline(__always)
    internal static func pairForm<First, Second>(
        of body: @escaping (Schema.Target, First, Second) -> Result
    ) -> PairSlot<Schema.Target, Arguments, Result>? where Arguments == (First, Second) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(
            PairBody { target, first, second in body(target, first, second) },
            to: PairSlot<Schema.Target, Arguments, Result>.self)
    }

    /// The body taking the two arguments apart, if this message has one.
    @inlinable @inline(__always)
    internal func pairBody<First, Second>() -> ((Schema.Target, First, Second) -> Result)?
    where Arguments == (First, Second) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: PairBody<Schema.Target, First, Second, Result>.self).body
    }

    /// The ``TripleBody`` of `body`, in a ``PairSlot``; `nil` off the layout fast paths.
    @inlinable @inline(__always)
    internal static func apartForm<A, B, C>(
        of body: @escaping (Schema.Target, A, B, C) -> Result
    ) -> PairSlot<Schema.Target, Arguments, Result>? where Arguments == (A, B, C) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(
            TripleBody { target, a, b, c in body(target, a, b, c) }, to: PairSlot<Schema.Target, Arguments, Result>.self
        )
    }

    /// The ``QuadBody`` of `body`, in a ``PairSlot``; `nil` off the layout fast paths.
    @inlinable @inline(__always)
    internal static func apartForm<A, B, C, D>(
        of body: @escaping (Schema.Target, A, B, C, D) -> Result
    ) -> PairSlot<Schema.Target, Arguments, Result>? where Arguments == (A, B, C, D) {
        guard usesLayoutFastPaths else { return nil }
        return unsafeBitCast(
            QuadBody { target, a, b, c, d in body(target, a, b, c, d) },
            to: PairSlot<Schema.Target, Arguments, Result>.self)
    }

    /// The body taking the three arguments apart, if this message has one.
    @inlinable @inline(__always)
    internal func apartBody<A, B, C>() -> ((Schema.Target, A, B, C) -> Result)? where Arguments == (A, B, C) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: TripleBody<Schema.Target, A, B, C, Result>.self).body
    }

    /// The body taking the four arguments apart, if this message has one.
    @inlinable @inline(__always)
    internal func apartBody<A, B, C, D>() -> ((Schema.Target, A, B, C, D) -> Result)?
    where Arguments == (A, B, C, D) {
        guard let pair else { return nil }
        return unsafeBitCast(pair, to: QuadBody<Schema.Target, A, B, C, D, Result>.self).body
    }
}
