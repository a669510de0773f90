/// A value in an object, immutable once made, read in place from any thread by code that holds or borrows the
/// object.
@usableFromInline
internal final class ImmutableBox<Value> {
    @usableFromInline
    internal let value: Value

    @usableFromInline @_alwaysEmitIntoClient
    init(_ value: Value) { self.value = value }
}
