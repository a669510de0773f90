// The glue the compile checks share, type-checked with each of them: a main-actor protocol through an isolated
// conformance, as Documentation/ReusingForYourProtocol.md writes it.
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

@MainActor final class Observer: CheckedObserver {
    func didChange(_ value: Int) {}
}
