// The positive control of MainActorSchemaFromNonisolated.swift: the same send, from the main actor, compiles.
import Fanout

@MainActor func sendOnTheMainActor() {
    let observers = ExistentialArrayMultiplexer<CheckedSchema>()
    observers.add(Observer())
    observers.send(CheckedSchema.didChange, 1)
}
