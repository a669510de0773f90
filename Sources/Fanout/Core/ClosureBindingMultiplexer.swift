/// The part ``ClosureTableMultiplexer`` and ``SelectorDictionaryMultiplexer``
/// share: at `add`, each message a target responds to becomes a closure in
/// that message's ``ClosureList``; at `remove`, the closures go. The
/// subclasses differ only in where a message's list lives (an array indexed
/// by ordinal, a dictionary keyed by selector), which ``withSlot(for:_:)``
/// provides.
public class ClosureBindingMultiplexer<Schema: DelegateSchema>: RegisteringMultiplexer<Schema> {
    /// Registers `target` strongly (its closures capture it), binding one
    /// closure for each message it responds to; registering it again does
    /// nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    public final func add(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        let id = Schema.identity(of: target)
        guard let messages = responsesForAdding(target, id: id), registry.insert(id: id, messages: messages) else {
            return
        }
        for message in Schema.messages where messages.contains(message.key) {
            bind(message, to: target, id: id)
        }
    }

    private func bind<M: MessageProtocol<Schema>>(_ message: M, to target: Schema.Target, id: ObjectIdentifier) {
        withSlot(for: message.key) { slot in ClosureList.bind(message, to: target, id: id, in: &slot) }
    }

    /// Unregisters `target`, releasing its closures.
    ///
    /// - Complexity: O(*n*·*k*), where *n* is the number of targets and *k*
    ///   the number of messages it responded to.
    public final func remove(_ target: Schema.Target) {
        beginCall()
        defer { endCall() }
        guard let (id, messages) = registry.remove(target) else { return }
        for key in Schema.Key.allCases where messages.contains(key) {
            withSlot(for: key) { slot in slot?.removeClosure(for: id) }
        }
    }

    /// Gives `body` the storage of the closure list for `key`. Subclasses
    /// override it; this class is never used on its own.
    func withSlot(for key: Schema.Key, _ body: (inout ClosureListBase?) -> Void) {
        preconditionFailure("\(Self.self) must override withSlot(for:_:)")
    }
}
