/// A multiplexer: one object set as a delegate that forwards every message to
/// many targets, with the dispatch strategy given by its storage.
///
/// ```swift
/// let multiplexer = Multiplexer<ClosureTableStorage<LifecycleSchema>>()  // or ClosureTableMultiplexer<…>
/// multiplexer.add(analytics)
/// multiplexer.add(keyboardAvoidance)
/// viewController.observer = multiplexer
/// ```
///
/// The storages are Fanout's six strategies (``ExistentialArrayStorage`` …
/// ``ConcurrentStorage``), each a ``Multiplexing`` type of its own; the
/// typealiases such as ``ExistentialArrayMultiplexer`` name the pairs. The set
/// is closed: `init()` traps for any other storage, because the dispatch
/// below is specialized for each of the six (a new strategy is added to
/// Fanout itself, `Documentation/WritingAStrategy.md`).
///
/// Every strategy is this one class, so a delegate protocol's conformance is
/// written once for all of them (`Documentation/ReusingForYourProtocol.md`):
///
/// ```swift
/// extension LifecycleObserver where Self: Delivering, Schema == LifecycleSchema {
///     @inline(__always) func viewDidAppear(_ animated: Bool) { send(Schema.viewDidAppear, animated) }
/// }
/// extension Multiplexer: LifecycleObserver where Storage.Schema == LifecycleSchema {}
/// ```
///
/// Such a conformance is generic over the storage, so a call through the
/// protocol does not know which strategy it reaches. The multiplexer records
/// which of Fanout's storages it holds when it is made, and
/// ``deliver(_:_:while:)`` tests that record to run code specialized for the
/// storage and the message.
public final class Multiplexer<Storage: Multiplexing>: Multiplexing {
    /// The delegate protocol this multiplexer forwards.
    public typealias Schema = Storage.Schema

    /// The strategy's state.
    @usableFromInline
    internal let storage: Storage

    /// Which of Fanout's storages `storage` is, as one bit
    /// (`DispatchStrategy.deliveryBit`), which ``deliver(_:while:invoking:)``
    /// tests.
    @usableFromInline
    internal let kindBit: UInt8

    /// Creates a multiplexer with no targets.
    ///
    /// - Precondition: `Storage` is one of Fanout's storages.
    public init() {
        storage = Storage()
        // The strategy whose multiplexer type this is: `DispatchStrategy` is
        // the one list of strategies.
        guard
            let strategy = DispatchStrategy.allCases.first(where: {
                ObjectIdentifier($0.multiplexerType(for: Schema.self)) == ObjectIdentifier(Self.self)
            })
        else {
            preconditionFailure("\(Storage.self) is not one of Fanout's storages (Documentation/WritingAStrategy.md)")
        }
        kindBit = strategy.deliveryBit
    }

    /// Registers `target`; registering a registered target does nothing. The
    /// target's `responds(to:)` is read now, once per message, before anything
    /// changes, so it may call this multiplexer.
    ///
    /// - Complexity: Amortized O(*k*) for *k* messages; see each storage.
    public func add(_ target: Schema.Target) {
        storage.add(target)
    }

    /// Unregisters `target`; unregistering an unknown target does nothing. A
    /// dispatch in flight still delivers to it.
    ///
    /// - Complexity: O(*n*) in the registered targets; see each storage.
    public func remove(_ target: Schema.Target) {
        storage.remove(target)
    }

    /// The number of live registered targets.
    public var count: Int { storage.count }

    /// Whether any live registered target responds to the message named `key`.
    public func responds(to key: Schema.Key) -> Bool {
        storage.responds(to: key)
    }

    /// Called when the set of messages that some registered target responds
    /// to changes: on `add` and `remove`, when a target bound to an owner
    /// leaves with it, and when `count` drops weakly held targets found
    /// gone. A host that reads its delegate's `responds(to:)` once, when the
    /// delegate is assigned (UIKit's views do), reads it again here. `nil`,
    /// the default, to be told nothing.
    ///
    /// Runs synchronously on the thread that made the change, once the change
    /// is complete; a change made while a dispatch is in flight is announced
    /// once, after the outermost dispatch returns. ``ConcurrentMultiplexer``
    /// announces at once, on the writer's thread. The rules in full:
    /// `Documentation/Strategies.md`, "Hosts that cache responds-to".
    public var respondersDidChange: (() -> Void)? {
        get { announcingStorage.respondersDidChange }
        set { announcingStorage.respondersDidChange = newValue }
    }

    /// `storage` as one of Fanout's storages, which `init` checked it is.
    private var announcingStorage: any MultiplexerStorage {
        guard let storage = storage as? any MultiplexerStorage else {
            preconditionFailure("\(Storage.self) is not one of Fanout's storages")
        }
        return storage
    }

    /// Sends `message` to each registered target that responds to it, in
    /// registration order, for as long as `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for `message`.
    @inlinable
    @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>,
        _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) {
        deliver(message.key, while: shouldContinue) { message.invoke($0, arguments) }
    }

    /// Sends `message`, a message of two arguments, as
    /// ``deliver(_:_:while:)`` does, with the arguments apart: every strategy
    /// carries them to each call without building their tuple, so a
    /// reference among them is not retained (`ArgumentPair.swift`). A
    /// descriptor without a two-argument body takes the tuple, built once.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits for `message`.
    @inlinable
    @inline(__always)
    public func deliver<First, Second, Result>(
        _ message: Message<Schema, (First, Second), Result>, _ first: First, _ second: Second,
        while shouldContinue: (Result) -> Bool
    ) {
        // Each target called with the arguments apart. A descriptor without a two-argument body takes the delivery
        // above with the tuple.
        guard let body = message.pairBody() as ((Schema.Target, First, Second) -> Result)? else {
            return deliver(message, (first, second), while: shouldContinue)
        }
        deliver(message.key, while: shouldContinue) { body($0, first, second) }
    }
}

extension Multiplexer {
    /// Calls, with `invoke`, each registered target that responds to the
    /// message named `key`, in registration order, while `shouldContinue`
    /// accepts the answers: the one choice among the storages.
    ///
    /// `storage` is of the kind recorded at `init`: each branch reinterprets
    /// it and runs that storage's one delivery, specialized for the storage
    /// and the message. `self` holds the storage for the whole call.
    ///
    /// A chain of bit tests in `DispatchStrategy.deliveryBit`'s order: each
    /// strategy pays one test and one branch more than the one before, and
    /// no indirect jump (the gate counts the difference).
    @inlinable
    @inline(__always)
    internal func deliver<Result>(
        _ key: Schema.Key, while shouldContinue: (Result) -> Bool, invoking invoke: (Schema.Target) -> Result
    ) {
        let bit = kindBit
        if bit & DispatchStrategy.existentialArray.deliveryBit != 0 {
            deliver(key, as: ExistentialArrayStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        } else if bit & DispatchStrategy.lifetimeBound.deliveryBit != 0 {
            deliver(key, as: LifetimeBoundStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        } else if bit & DispatchStrategy.closureTable.deliveryBit != 0 {
            deliver(key, as: ClosureTableStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        } else if bit & DispatchStrategy.selectorDictionary.deliveryBit != 0 {
            deliver(key, as: SelectorDictionaryStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        } else if bit & DispatchStrategy.weakArray.deliveryBit != 0 {
            deliver(key, as: WeakArrayStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        } else {
            deliver(key, as: ConcurrentStorage<Schema>.self, while: shouldContinue, invoking: invoke)
        }
    }

    /// Runs the delivery of `Known`, the storage type `storage` is, borrowing
    /// it: one branch of the chain above.
    @inlinable
    @inline(__always)
    internal func deliver<Known: _TargetCallingStorage, Result>(
        _ key: Schema.Key, as known: Known.Type, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) where Known.Schema == Schema {
        Known._deliver(key, in: .passUnretained(Self.known(storage)), while: shouldContinue, invoking: invoke)
    }

    /// `storage` as the storage type `Known` it is.
    ///
    /// - Precondition: `storage` is a `Known` (checked in debug builds).
    @inlinable
    @inline(__always)
    internal static func known<Known: AnyObject>(_ storage: Storage, as known: Known.Type = Known.self) -> Known {
        assert(storage is Known)
        return unsafeDowncast(storage, to: Known.self)
    }
}

extension Multiplexer: Sendable where Storage: Sendable {}
