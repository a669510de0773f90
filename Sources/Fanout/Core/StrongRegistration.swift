/// A target held strongly with the set of messages it responds to: the
/// storage of ``ExistentialArrayMultiplexer`` and ``ConcurrentMultiplexer``.
@frozen
@usableFromInline
internal struct StrongRegistration<Schema: DelegateSchema> {
    @usableFromInline let target: Schema.Target
    @usableFromInline let messages: MessageSet<Schema.Key>

    @inlinable
    init(target: Schema.Target, messages: MessageSet<Schema.Key>) {
        self.target = target
        self.messages = messages
    }

    /// Calls every target of `snapshot` that responds to `message`, in order,
    /// for as long as `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*n*) in the entries of `snapshot`.
    @inlinable
    @inline(__always)
    static func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments,
        to snapshot: ContiguousArray<IdentifiedList<Self>.Entry>, while shouldContinue: (Result) -> Bool
    ) {
        for entry in snapshot where entry.value.messages.contains(message.key) {
            guard shouldContinue(message.invoke(entry.value.target, arguments)) else { return }
        }
    }
}
