// The positive control of MainActorSchemaFromDetachedTask.swift: the same glue, sent from the main actor, compiles.
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

@MainActor func sendOnTheMainActor(_ observers: ExistentialArrayMultiplexer<CheckedSchema>) {
    observers.send(CheckedSchema.didChange, 1)
}
