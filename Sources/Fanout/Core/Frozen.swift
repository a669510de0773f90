/// A value in an object, immutable once made: code that holds the object, or borrows it with
/// `Unmanaged._withUnsafeGuaranteedRef`, reads the value in place, from any thread, counting no reference.
///
/// A value read from a `let` of an object held for a call is known to stay put through the call: a target called
/// with a reference argument is not copied (retained) around the call, as one read from an array's buffer is (see
/// ``lend(_:to:)``, which is not for buffers other threads read). `ConcurrentMultiplexer` keeps each target and
/// each snapshot in one, a forwarding closure list each bound closure.
@usableFromInline
internal final class Frozen<Value> {
    @usableFromInline
    internal let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
