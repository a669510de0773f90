extension RegistrationTable where Value == Schema.Target {
    /// Calls every target of `snapshot` that responds to `message`, in order,
    /// for as long as `shouldContinue` accepts the answers: the dispatch of
    /// the strategies that hold their targets strongly in a table
    /// (``ExistentialArrayStorage``, ``ConcurrentStorage``). The snapshot keeps
    /// every target alive until the dispatch ends.
    ///
    /// - Complexity: O(*n*) in the entries of `snapshot`.
    @inlinable
    @inline(__always)
    static func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments,
        to snapshot: ContiguousArray<Entry>, while shouldContinue: (Result) -> Bool
    ) {
        // Through the buffer, not `for entry in snapshot`: with the plain loop
        // the optimizer retained and released every target around a call that
        // returns a reference (`viewForZooming`).
        let sent = MessageSet(message.key)
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].messages.intersects(sent) {
                guard shouldContinue(message.invoke(entries[index].value, arguments)) else { return }
            }
        }
    }
}
