// The glue Documentation/ReusingForYourProtocol.md taught before 0.2.0 (at 9ce5f48), and 0.1.0's base classes, with
// only `import Fanout`: each removed name must fail with, or warn of, the line that replaces it
// (Sources/Fanout/RemovedNames.swift).
// expected-error: 'Multiplexer' is unavailable: each strategy is a class of its own since Fanout 0.2.0: write one conformance line per strategy you use, 'extension ExistentialArrayMultiplexer: P where Schema == S {}'
// expected-error: 'StaticComposition' is unavailable: moved to the module FanoutStatic in Fanout 0.2.0: add .product(name: "FanoutStatic", package: "Fanout") to the target's dependencies and 'import FanoutStatic'
// expected-error: 'ComposedBehaviours' is unavailable: moved to the module FanoutStatic in Fanout 0.2.0
// expected-error: 'ClosureTableStorage' has been renamed to 'ClosureTableMultiplexer': the storage is the multiplexer since 0.2.0
// expected-error: 'ExistentialArrayStorage' has been renamed to 'ExistentialArrayMultiplexer'
// expected-error: 'SelectorDictionaryStorage' has been renamed to 'SelectorDictionaryMultiplexer'
// expected-error: 'WeakArrayStorage' has been renamed to 'WeakArrayMultiplexer'
// expected-error: 'LifetimeBoundStorage' has been renamed to 'LifetimeBoundMultiplexer'
// expected-error: 'ConcurrentStorage' has been renamed to 'ConcurrentMultiplexer'
// expected-error: 'MultiplexerStorage' has been renamed to 'Multiplexing'
// expected-error: 'MessageSet' is unavailable: internal since Fanout 0.2.0: keep a Set<Key> of the keys a target responds to, or ask a multiplexer's responds(to:)
// expected-error: 'RegisteringMultiplexer' has been renamed to 'Multiplexing': use any Multiplexing<Schema>, which every strategy is
// expected-error: 'ClosureBindingMultiplexer' has been renamed to 'Multiplexing'
// expected-warning: 'MessageForwarder' is deprecated: no longer a public name since Fanout 0.2.0: write the function type, ([Any], AnyObject?, inout [Any?]) throws -> Void
import Fanout

protocol LifecycleObserver: AnyObject {
    func viewDidAppear(_ animated: Bool)
}
enum LifecycleMessage: String, MessageKey {
    case viewDidAppear = "viewDidAppear:"
}
enum LifecycleSchema: DelegateSchema {
    typealias Target = any LifecycleObserver
    typealias Key = LifecycleMessage
    static var viewDidAppear: Message<Self, Bool, Void> { .init(.viewDidAppear) { $0.viewDidAppear($1) } }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(viewDidAppear)
    }
}
extension LifecycleObserver where Self: Delivering, Schema == LifecycleSchema {
    @inline(__always) func viewDidAppear(_ animated: Bool) { send(Schema.viewDidAppear, animated) }
}
extension Multiplexer: LifecycleObserver where Storage.Schema == LifecycleSchema {}
extension StaticComposition: LifecycleObserver where Schema == LifecycleSchema {}
final class ScreenObservers: ComposedBehaviours, LifecycleObserver {
    func viewDidAppear(_ animated: Bool) {}
}

func makeStorages() {
    _ = Multiplexer<ExistentialArrayMultiplexer<LifecycleSchema>>()
    _ = ClosureTableStorage<LifecycleSchema>()
    _ = ExistentialArrayStorage<LifecycleSchema>()
    _ = SelectorDictionaryStorage<LifecycleSchema>()
    _ = WeakArrayStorage<LifecycleSchema>()
    _ = LifetimeBoundStorage<LifecycleSchema>()
    _ = ConcurrentStorage<LifecycleSchema>()
}

func anyStorage<Storage: MultiplexerStorage>(_ storage: Storage) -> Int { storage.count }

func responded(_ set: MessageSet<LifecycleMessage>) -> Bool { set.contains(.viewDidAppear) }

// The base classes of 0.1.0.
func count(_ registering: RegisteringMultiplexer<LifecycleSchema>, _ binding: ClosureBindingMultiplexer<LifecycleSchema>) -> Int {
    registering.count + binding.count
}

let forwarder: MessageForwarder = { _, _, answers in answers = [] }
