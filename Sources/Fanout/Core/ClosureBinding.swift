/// What ``ClosureTableMultiplexer`` and ``SelectorDictionaryMultiplexer`` share: at `add`, the target joins the
/// ``ClosureList`` of each message it responds to (with a bound closure, in a storage that forwards); at
/// `remove`, it leaves them. Only where a message's list lives differs, which ``withSlot(for:_:)`` gives.
internal protocol ClosureBinding: AnnouncingStorage {
    associatedtype Schema: DelegateSchema

    /// The registered targets and the messages each responds to.
    var table: RegistrationTable<Schema, Void> { get set }

    var confinement: ThreadConfinement { get }

    /// Gives `body` the storage of the closure list for `key`.
    func withSlot(for key: Schema.Key, _ body: (inout AnyClosureList?) -> Void)

    /// Whether the storage forwards messages named at run time, and so binds a closure per message for `forward`.
    static var forwards: Bool { get }
}

extension ClosureBinding {
    /// Registers `target` strongly (the lists hold it) in the list of each
    /// message it responds to; registering it again does nothing.
    ///
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    func bind(_ target: Schema.Target) {
        announcingChanges { bindNow(target) }
    }

    private func bindNow(_ target: Schema.Target) {
        confinement.begin(self)
        defer { confinement.end() }
        guard
            let (id, messages) = RegistrationTable<Schema, Void>.newMember(
                target, addingTo: self, isRegistered: { self.table.contains($0) })
        else { return }
        table.append((), id: id, messages: messages)
        for message in SchemaInfo<Schema>.shared.messages where messages.contains(message.key) {
            bind(message, to: target, id: id)
        }
    }

    private func bind<M: MessageProtocol<Schema>>(_ message: M, to target: Schema.Target, id: ObjectIdentifier) {
        withSlot(for: message.key) { slot in
            ClosureList.bind(message, to: target, id: id, in: &slot, forwarding: Self.forwards)
        }
    }

    /// Unregisters `target`, taking it out of its lists.
    ///
    /// - Complexity: O(*n*·*k*) for *n* targets and the *k* messages it responded to.
    func unbind(_ target: Schema.Target) {
        announcingChanges { unbindNow(target) }
    }

    private func unbindNow(_ target: Schema.Target) {
        confinement.begin(self)
        defer { confinement.end() }
        guard let entry = table.remove(Schema.identity(of: target)) else { return }
        for key in Schema.Key.allCases where entry.messages.contains(key) {
            withSlot(for: key) { slot in slot?.remove(entry.id) }
        }
    }

    /// The number of registered targets.
    var registeredCount: Int { confinement.run(self) { table.count } }

    /// Whether any registered target responds to `key`.
    func anyResponds(to key: Schema.Key) -> Bool { confinement.run(self) { table.responds(to: key) } }
}
