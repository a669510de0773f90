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
public final class ExistentialArrayMultiplexer<Schema: DelegateSchema>: _TargetCalling, SingleThreadedStrategy,
    PinnedArrayOwner
{
    #if !FANOUT_CHECK_EXCLUSIVITY  // read in place by pinned dispatches: see SingleThreadedCore
        @exclusivity(unchecked)
    #endif
    @usableFromInline internal var core = SingleThreadedCore<Schema, Schema.Target>()

    public var respondersDidChange: (() -> Void)?

    public init() {}

    /// Registers `target` strongly; registering it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public func add(_ target: Schema.Target) {
        announcingChanges {
            confined {
                let id = Schema.identity(of: target)
                guard !core.table.contains(id), let messages = Table.responses(of: target, id: id, addingTo: self)
                else { return }
                core.table.append(target, id: id, messages: messages)
            }
        }
    }

    /// Unregisters `target`, releasing the multiplexer's reference to it.
    ///
    /// - Complexity: O(*n*), where *n* is the number of targets.
    public func remove(_ target: Schema.Target) {
        announcingChanges { confined { core.table.remove(Schema.identity(of: target)) } }
    }

    /// The number of registered targets.
    public var count: Int {
        confined { core.table.count }
    }

    /// Whether any registered target responds to `key`.
    public func responds(to key: Schema.Key) -> Bool {
        confined { core.table.responds(to: key) }
    }

    /// This strategy's delivery (``_TargetCalling``), testing every registered target in turn.
    @_alwaysEmitIntoClient @inline(__always)
    public static func _deliver<Result>(
        _ key: Schema.Key, in storage: Unmanaged<ExistentialArrayMultiplexer>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        storage.dispatch(pinning: storage) { entries, index in
            guard _fastPath(entries[index].messages.contains(key)) else { return true }
            return shouldContinue(lend(&entries[index].value, to: invoke))
        }
    }
}
