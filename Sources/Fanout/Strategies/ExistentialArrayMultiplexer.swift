/// A multiplexer that stores its targets strongly, as protocol existentials in one array, and calls them in turn
/// through the protocol's witness table.
///
/// ```swift
/// let multiplexer = ExistentialArrayMultiplexer<ScrollViewSchema>()
/// multiplexer.add(zoomBehavior)
/// scrollView.delegate = multiplexer
/// ```
///
/// Every dispatch visits every target and skips those whose set of messages lacks the message, so sparse
/// responders still cost one test per target. The dispatch pins the array's buffer, which keeps every target
/// alive until it ends. Single-threaded.
public final class ExistentialArrayMultiplexer<Schema: DelegateSchema>: _TargetCalling, ChangeAnnouncing,
    PinnedArrayOwner
{
    @usableFromInline
    internal typealias Table = RegistrationTable<Schema, Schema.Target>

    /// Read in place by pinned dispatches; every access is instantaneous, so no dynamic exclusivity check is needed.
    #if !FANOUT_CHECK_EXCLUSIVITY  // .ci/run checks it: an access that overlaps another traps
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var table = Table()

    @usableFromInline
    internal let confinement = ThreadConfinement()

    public var respondersDidChange: (() -> Void)?

    @exclusivity(unchecked) @usableFromInline internal var deferredAnnouncement: UInt64?

    public init() {}

    /// Registers `target` strongly; registering it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        announcingChanges {
            confinement.run(self) {
                guard
                    let (id, messages) = Table.newMember(
                        target, addingTo: self, isRegistered: { self.table.contains($0) })
                else { return }
                table.append(target, id: id, messages: messages)
            }
        }
    }

    /// Unregisters `target`, releasing the multiplexer's reference to it.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    public func remove(_ target: Schema.Target) {
        announcingChanges { confinement.run(self) { table.remove(Schema.identity(of: target)) } }
    }

    /// The number of registered targets.
    public var count: Int {
        confinement.run(self) { table.count }
    }

    /// Whether any registered target responds to `key`.
    public func responds(to key: Schema.Key) -> Bool {
        confinement.run(self) { table.responds(to: key) }
    }

    /// This strategy's delivery (``_TargetCalling``), testing every registered target in turn.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<ExistentialArrayMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        storage.dispatch { entries in
            let pinned = UnsafeMutableBufferPointer(mutating: entries)  // lent to each call, never written
            Table.forEachResponder(to: key, in: entries) { shouldContinue(lend(&pinned[$0].value, to: invoke)) }
        }
    }
}
