// A send through a main-actor schema from outside the main actor must not compile: the schema's conformance is
// isolated to the main actor (Documentation/ReusingForYourProtocol.md).
// expected-error: main actor-isolated conformance of 'CheckedSchema' to 'DelegateSchema' cannot be used in nonisolated context
import Fanout

@MainActor protocol CheckedObserver: AnyObject {
    func didChange(_ value: Int)
}

enum CheckedMessage: String, MessageKey {
    case didChange = "didChange:"
}

@MainActor enum CheckedSchema: @MainActor DelegateSchema {
    typealias Target = any CheckedObserver
    typealias Key = CheckedMessage
    static var didChange: Message<Self, Int, Void> { .init(.didChange) { $0.didChange($1) } }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self { visitor.visit(didChange) }
}

nonisolated func sendFromAnywhere() {
    let observers = ExistentialArrayMultiplexer<CheckedSchema>()
    observers.add(Observer())
}

@MainActor final class Observer: CheckedObserver {
    func didChange(_ value: Int) {}
}
