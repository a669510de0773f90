import FanoutSupport

/// The debug-build check that a single-threaded storage is used from one thread at a time: every public call
/// begins and ends one, and a call from a second thread while another is inside one traps with a message that
/// points at ``ConcurrentMultiplexer``. Release builds contain none of it: the struct is empty.
@frozen
@usableFromInline
internal struct ThreadConfinement {
    #if DEBUG
        /// Which thread is inside a call, and how deeply (`FanoutSupport/Confinement.c`), in a heap buffer that stays
        /// in place: the record is read and written atomically, from any thread.
        @usableFromInline
        internal let record = ManagedBuffer<Void, fanout_confinement>.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { $0.initialize(to: fanout_confinement()) }
        }
    #endif

    @usableFromInline @_alwaysEmitIntoClient
    internal init() {}

    /// Begins a call of `owner` on this thread.
    ///
    /// - Precondition: No other thread is inside a call of `owner` (debug builds).
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func begin(_ owner: AnyObject) {
        #if DEBUG
            enter(owner)
        #endif
    }

    /// Ends the call begun last.
    @usableFromInline @_alwaysEmitIntoClient
    @inline(__always)
    internal func end() {
        #if DEBUG
            record.withUnsafeMutablePointerToElements { fanout_confinement_exit($0) }
        #endif
    }

    /// Runs `body` as a call of `owner`: ``begin(_:)``, `body`, ``end()``.
    @discardableResult
    internal func run<Value>(_ owner: AnyObject, _ body: () -> Value) -> Value {
        begin(owner)
        defer { end() }
        return body()
    }

    #if DEBUG
        @usableFromInline
        internal func enter(_ owner: AnyObject) {
            guard record.withUnsafeMutablePointerToElements({ fanout_confinement_enter($0) }) != 0 else {
                preconditionFailure(
                    "\(type(of: owner)) was called from a second thread while a dispatch or a mutation was in progress "
                        + "on another: it is single-threaded. Share a ConcurrentMultiplexer (DispatchStrategy.concurrent) "
                        + "between threads instead.")
            }
        }
    #endif
}
