import FanoutSupport

/// The debug-build check that a single-threaded multiplexer is used from one
/// thread at a time: every public call enters it, and a call from a second
/// thread while another thread is inside one traps with a message that points
/// at ``ConcurrentMultiplexer``.
///
/// Release builds of the library contain none of it.
@usableFromInline
internal final class ThreadConfinement {
    private let state = fanout_confinement_create()

    @usableFromInline
    init() {}

    deinit { fanout_confinement_destroy(state) }

    /// Enters a call of `owner` on this thread.
    ///
    /// - Precondition: No other thread is inside a call of `owner`.
    @usableFromInline
    func enter(_ owner: AnyObject) {
        guard fanout_confinement_enter(state) != 0 else { Self.reportSharing(owner) }
    }

    /// Leaves the call entered last.
    @usableFromInline
    func exit() {
        fanout_confinement_exit(state)
    }

    /// Checks, without entering, that no other thread is inside a call of `owner`.
    @usableFromInline
    func check(_ owner: AnyObject) {
        guard fanout_confinement_is_free(state) != 0 else { Self.reportSharing(owner) }
    }

    private static func reportSharing(_ owner: AnyObject) -> Never {
        preconditionFailure(
            "\(type(of: owner)) was called from a second thread while a dispatch or a mutation was in progress on "
                + "another: it is single-threaded. Share a ConcurrentMultiplexer (DispatchStrategy.concurrent) "
                + "between threads instead.")
    }
}
