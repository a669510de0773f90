/// A value in an object, immutable once made, read in place from any thread by code that holds or borrows the
/// object. A `let` of an object held for a call is known to stay put through the call, so a target read from one
/// is not retained around a call with a reference argument, as one read from a shared array's buffer is.
@usableFromInline
internal final class Frozen<Value> {
    @usableFromInline
    internal let value: Value

    @usableFromInline @_alwaysEmitIntoClient
    init(_ value: Value) { self.value = value }
}
