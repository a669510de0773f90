import Fanout
import FanoutStatic
import FanoutScrollViewKit
import Testing

// A second delegate protocol, as in "Composing Together View Behaviors in iOS":
// view-controller lifecycle observers. Everything below the protocol is the glue
// of Documentation/ReusingForYourProtocol.md as it was at eee6c54 (a `messages`
// list, methods on every multiplexer, `StaticComposition` and a refinement), kept
// unchanged: glue written that way must still compile and deliver the same.
// The guide's current glue is in MainActorGlueTests.swift.

protocol LifecycleObserver: AnyObject {
    func viewDidAppear(_ animated: Bool)
    func viewDidDisappear(_ animated: Bool)
}

enum LifecycleMessage: String, MessageKey {
    case viewDidAppear = "viewDidAppear:"
    case viewDidDisappear = "viewDidDisappear:"
}

// One descriptor line per message, plus the list of them.
enum LifecycleSchema: DelegateSchema {
    typealias Target = any LifecycleObserver
    typealias Key = LifecycleMessage
    static var viewDidAppear: Message<Self, Bool, Void> { .init(.viewDidAppear) { $0.viewDidAppear($1) } }
    static var viewDidDisappear: Message<Self, Bool, Void> { .init(.viewDidDisappear) { $0.viewDidDisappear($1) } }
    static var messages: [any MessageProtocol<Self>] { [viewDidAppear, viewDidDisappear] }
}

// The glue, one line per message, for every multiplexer; then one conformance line per strategy.
extension LifecycleObserver where Self: Delivering, Schema == LifecycleSchema {
    func viewDidAppear(_ animated: Bool) { send(Schema.viewDidAppear, animated) }
    func viewDidDisappear(_ animated: Bool) { send(Schema.viewDidDisappear, animated) }
}
extension ExistentialArrayMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}
extension ClosureTableMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}
extension SelectorDictionaryMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}
extension WeakArrayMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}
extension LifetimeBoundMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}
extension ConcurrentMultiplexer: LifecycleObserver where Schema == LifecycleSchema {}

// A fixed group of observers: the messages listed with their types, and the same glue.
extension LifecycleSchema {
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(viewDidAppear)
        visitor.visit(viewDidDisappear)
    }
}

extension StaticComposition: LifecycleObserver where Schema == LifecycleSchema {}

// A group held by a type of its own, with witnesses specialized for its elements:
// the refinement, and the same one line per message.
protocol ComposedLifecycleObserver: ComposedBehaviours, LifecycleObserver where Schema == LifecycleSchema {}

extension ComposedLifecycleObserver {
    @inline(never) func viewDidAppear(_ animated: Bool) { send(Schema.viewDidAppear, animated) }
    @inline(never) func viewDidDisappear(_ animated: Bool) { send(Schema.viewDidDisappear, animated) }
}

/// Where a multiplexer is assigned: a view controller with one observer.
final class ObservedViewController {
    weak var observer: (any LifecycleObserver)?

    func appear(animated: Bool) { observer?.viewDidAppear(animated) }
    func disappear(animated: Bool) { observer?.viewDidDisappear(animated) }
}

final class LifecycleRecorder: LifecycleObserver {
    let name: String
    var events: [String]

    init(_ name: String, events: [String] = []) {
        self.name = name
        self.events = events
    }

    func viewDidAppear(_ animated: Bool) { events.append("\(name) appeared animated=\(animated)") }
    func viewDidDisappear(_ animated: Bool) { events.append("\(name) disappeared animated=\(animated)") }
}

@Suite("Reusing the strategies for another protocol")
struct LifecycleObserverTests {
    @Test("every strategy is a lifecycle observer, assigned to the property and driven through it",
          arguments: DispatchStrategy.allCases)
    func forwardsLifecycle(strategy: DispatchStrategy) throws {
        let multiplexer = strategy.makeMultiplexer(for: LifecycleSchema.self)
        let viewController = ObservedViewController()
        viewController.observer = try #require(multiplexer as? any LifecycleObserver)
        let first = LifecycleRecorder("first"), second = LifecycleRecorder("second")
        multiplexer.add(first)
        multiplexer.add(second)
        multiplexer.add(first)
        #expect(multiplexer.count == 2)
        #expect(multiplexer.responds(to: .viewDidAppear))
        viewController.appear(animated: true)
        multiplexer.remove(first)
        viewController.disappear(animated: false)
        #expect(first.events == ["first appeared animated=true"])
        #expect(second.events == ["second appeared animated=true", "second disappeared animated=false"])
    }

    @Test("a strategy's type is a lifecycle observer without a cast")
    func concreteTypeConforms() {
        let multiplexer = ClosureTableMultiplexer<LifecycleSchema>()
        let viewController = ObservedViewController()
        viewController.observer = multiplexer
        let recorder = LifecycleRecorder("only")
        multiplexer.add(recorder)
        viewController.appear(animated: false)
        #expect(recorder.events == ["only appeared animated=false"])
    }

    @Test("selector forwarding works for the second protocol too")
    func forwardsBySelector() throws {
        let multiplexer = SelectorDictionaryMultiplexer<LifecycleSchema>()
        let recorder = LifecycleRecorder("only")
        multiplexer.add(recorder)
        _ = try multiplexer.forward("viewDidAppear:", arguments: [false])
        #expect(recorder.events == ["only appeared animated=false"])
        #expect(throws: ForwardingError.wrongArgumentType(
            selector: "viewDidDisappear:", position: 0, expected: "Swift.Bool", actual: "Swift.Int")) {
            try multiplexer.forward("viewDidDisappear:", arguments: [1])
        }
    }

    @Test("the default ordinal finds each key's position")
    func defaultOrdinal() {
        #expect(LifecycleMessage.allCases.map(\.ordinal) == [0, 1])
        #expect(ScrollViewMessage.allCases.map(\.ordinal) == [0, 1, 2, 3, 4])
    }

    @Test("a fixed group of observers is an observer too, assigned to the property and driven through it")
    func staticGroup() {
        let first = LifecycleRecorder("first"), second = LifecycleRecorder("second")
        let group = LifecycleSchema.compose { first; second }
        let viewController = ObservedViewController()
        viewController.observer = group
        viewController.appear(animated: true)
        group.viewDidDisappear(false)
        #expect(first.events == ["first appeared animated=true", "first disappeared animated=false"])
        #expect(second.events == ["second appeared animated=true", "second disappeared animated=false"])
    }

    @Test("a group held by a type of its own is an observer, assigned to the property and driven through it")
    func namedGroup() {
        final class ScreenObservers: ComposedLifecycleObserver {
            let composition: StaticComposition<LifecycleSchema, StaticPair<StaticPair<StaticEnd<LifecycleSchema>, LifecycleRecorder>, LifecycleRecorder>>
            init(_ first: LifecycleRecorder, _ second: LifecycleRecorder) {
                composition = LifecycleSchema.compose { first; second }
            }
        }
        let first = LifecycleRecorder("first"), second = LifecycleRecorder("second")
        let observers = ScreenObservers(first, second)
        let viewController = ObservedViewController()
        viewController.observer = observers
        viewController.appear(animated: true)
        viewController.disappear(animated: false)
        #expect(observers.count == 2 && observers.responds(to: .viewDidAppear))
        #expect(first.events == ["first appeared animated=true", "first disappeared animated=false"])
        #expect(second.events == ["second appeared animated=true", "second disappeared animated=false"])
    }
}
