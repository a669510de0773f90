/// The bookkeeping every strategy shares: which targets are registered, which
/// messages each responds to, and how many targets respond to each message.
///
/// Strategies keep their dispatch storage separately and consult the registry
/// for duplicate detection, `count` and `responds(to:)`.
@usableFromInline
internal struct Registry<Schema: DelegateSchema> {
    /// A target's identity and the messages it responded to when it was added.
    @usableFromInline
    internal typealias Membership = (id: ObjectIdentifier, messages: MessageSet<Schema.Key>)

    @usableFromInline
    internal private(set) var members: [ObjectIdentifier: MessageSet<Schema.Key>] = [:]

    @usableFromInline
    internal private(set) var responderCounts = [Int](repeating: 0, count: Schema.Key.allCases.count)

    /// - Precondition: Every key's `ordinal` is its position in `allCases`,
    ///   as the strategies' tables assume (checked in debug builds).
    @inlinable
    internal init() {
        assert(
            Schema.Key.allCases.enumerated().allSatisfy { position, key in key.ordinal == position },
            "\(Schema.Key.self).ordinal must be each key's position in allCases"
        )
    }

    /// Records `target`, reading which messages it responds to.
    ///
    /// - Returns: Its membership, or `nil` when it was already registered.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    @inlinable
    internal mutating func insert(_ target: Schema.Target) -> Membership? {
        let id = Schema.identity(of: target)
        guard members[id] == nil else { return nil }
        let messages = Schema.respondedMessages(of: target)
        members[id] = messages
        adjustCounts(for: messages, by: 1)
        return (id, messages)
    }

    /// Forgets `target`.
    ///
    /// - Returns: Its membership, or `nil` when it was not registered.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    @inlinable
    internal mutating func remove(_ target: Schema.Target) -> Membership? {
        remove(id: Schema.identity(of: target))
    }

    /// Forgets the target with identity `id`.
    ///
    /// - Returns: Its membership, or `nil` when it was not registered.
    @inlinable
    internal mutating func remove(id: ObjectIdentifier) -> Membership? {
        guard let messages = members.removeValue(forKey: id) else { return nil }
        adjustCounts(for: messages, by: -1)
        return (id, messages)
    }

    /// Whether a target with identity `id` is registered.
    @inlinable
    internal func contains(_ id: ObjectIdentifier) -> Bool { members[id] != nil }

    /// The number of registered targets.
    @inlinable
    internal var count: Int { members.count }

    /// Whether any registered target responds to `key`.
    ///
    /// - Complexity: O(1).
    @inlinable
    internal func responds(to key: Schema.Key) -> Bool { responderCounts[key.ordinal] > 0 }

    @inlinable
    internal mutating func adjustCounts(for messages: MessageSet<Schema.Key>, by delta: Int) {
        for key in Schema.Key.allCases where messages.contains(key) {
            responderCounts[key.ordinal] += delta
        }
    }
}
