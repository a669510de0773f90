// A send through a main-actor schema from outside the main actor must not compile: the schema's conformance is
// isolated to the main actor (Documentation/ReusingForYourProtocol.md).
// expected-error: main actor-isolated conformance of 'CheckedSchema' to 'DelegateSchema' cannot be used in nonisolated context
import Fanout

nonisolated func sendFromAnywhere() {
    let observers = ExistentialArrayMultiplexer<CheckedSchema>()
    observers.send(CheckedSchema.didChange, 1)
}
