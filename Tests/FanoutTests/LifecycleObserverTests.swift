import Fanout
import Testing

// A second delegate protocol, as in "Composing Together View Behaviors in iOS":
// view-controller lifecycle observers. Everything below the protocol is the
// glue a user writes to reuse every strategy.

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

// The protocol's own methods, each forwarding its descriptor.
extension Multiplexing where Schema == LifecycleSchema {
    func viewDidAppear(_ animated: Bool) { send(Schema.viewDidAppear, animated) }
    func viewDidDisappear(_ animated: Bool) { send(Schema.viewDidDisappear, animated) }
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
    @Test("every strategy forwards a lifecycle observer", arguments: DispatchStrategy.allCases)
    func forwardsLifecycle(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(for: LifecycleSchema.self)
        let first = LifecycleRecorder("first"), second = LifecycleRecorder("second")
        multiplexer.add(first)
        multiplexer.add(second)
        multiplexer.add(first)
        #expect(multiplexer.count == 2)
        #expect(multiplexer.responds(to: .viewDidAppear))
        multiplexer.viewDidAppear(true)
        multiplexer.remove(first)
        multiplexer.viewDidDisappear(false)
        #expect(first.events == ["first appeared animated=true"])
        #expect(second.events == ["second appeared animated=true", "second disappeared animated=false"])
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
        #expect(ScrollViewMessage.allCases.map(\.ordinal) == [0, 1, 2, 3])
    }
}
