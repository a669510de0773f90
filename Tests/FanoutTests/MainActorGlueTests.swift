// Isolated conformances (`@MainActor DelegateSchema`, SE-0470) need a Swift 6.2 compiler; the manifest's tools
// version, 6.0, lets older ones build the package, without these tests.
#if compiler(>=6.2)
import Fanout
import FanoutStatic
import Testing

// The glue of Documentation/ReusingForYourProtocol.md for a main-actor delegate protocol, as UIKit's are in
// Swift 6, written exactly as the guide shows it: four places per message (the key's case, the descriptor, its
// line in `visitMessages`, one method), and three conformance lines and a typed weak reference for the protocol.

@MainActor
protocol ScreenObserver: AnyObject {
    func screenDidLoad(_ identifier: Int)
    func screenShouldClose() -> Bool
}

enum ScreenMessage: String, MessageKey {
    case didLoad = "screenDidLoad:"
    case shouldClose = "screenShouldClose"
}

@MainActor
enum ScreenSchema: @MainActor DelegateSchema {
    typealias Target = any ScreenObserver
    typealias Key = ScreenMessage
    static var didLoad: Message<Self, Int, Void> { .init(.didLoad) { $0.screenDidLoad($1) } }
    static var shouldClose: Message<Self, Void, Bool> { .init(.shouldClose) { $0.screenShouldClose() } }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(didLoad)
        visitor.visit(shouldClose)
    }
}

extension ScreenObserver where Self: Delivering, Schema == ScreenSchema {
    @inline(__always) func screenDidLoad(_ identifier: Int) { send(Schema.didLoad, identifier) }
    @inline(__always) func screenShouldClose() -> Bool { askAll(Schema.shouldClose, ()) }
}

extension ExistentialArrayMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension ClosureTableMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension SelectorDictionaryMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension WeakArrayMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension LifetimeBoundMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension ConcurrentMultiplexer: ScreenObserver where Schema == ScreenSchema {}
extension StaticComposition: ScreenObserver where Schema == ScreenSchema {}

/// A group held by a type of its own.
@MainActor
final class ScreenBehaviours<Elements: StaticElements<ScreenSchema>>: @MainActor ComposedBehaviours, ScreenObserver {
    let composition: StaticComposition<ScreenSchema, Elements>
    init(_ composition: StaticComposition<ScreenSchema, Elements>) { self.composition = composition }
}

@MainActor
final class ScreenRecorder: ScreenObserver {
    let name: String
    let allowsClosing: Bool
    var events: [String] = []

    init(_ name: String, allowsClosing: Bool = true) {
        self.name = name
        self.allowsClosing = allowsClosing
    }

    func screenDidLoad(_ identifier: Int) { events.append("\(name) loaded \(identifier)") }
    func screenShouldClose() -> Bool {
        events.append("\(name) asked")
        return allowsClosing
    }
}

@MainActor
@Suite("A main-actor delegate protocol, with the guide's glue")
struct MainActorGlueTests {
    @Test("every strategy delivers a main-actor protocol's messages", arguments: DispatchStrategy.allCases)
    func everyStrategy(_ strategy: DispatchStrategy) throws {
        let first = ScreenRecorder("a"), second = ScreenRecorder("b", allowsClosing: false)
        let multiplexer = strategy.makeMultiplexer(for: ScreenSchema.self)
        multiplexer.add(first)
        multiplexer.add(second)
        let observer = try #require(multiplexer as? any ScreenObserver)
        observer.screenDidLoad(7)
        #expect(observer.screenShouldClose() == false)
        #expect(first.events == ["a loaded 7", "a asked"])
        #expect(second.events == ["b loaded 7", "b asked"])
        multiplexer.remove(second)
        #expect(observer.screenShouldClose() == true)
        #expect(second.events.count == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test("a static composition and a type that holds one deliver a main-actor protocol's messages")
    func staticComposition() {
        let first = ScreenRecorder("a"), second = ScreenRecorder("b", allowsClosing: false)
        let group = ScreenSchema.compose { first; second }
        let observers: [any ScreenObserver] = [group, ScreenBehaviours(group)]
        for observer in observers {
            observer.screenDidLoad(1)
            #expect(observer.screenShouldClose() == false)
        }
        #expect(first.events == ["a loaded 1", "a asked", "a loaded 1", "a asked"])
        #expect(second.events == ["b loaded 1", "b asked", "b loaded 1", "b asked"])
    }
}
#endif
