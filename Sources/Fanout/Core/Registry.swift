import FanoutSupport

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

    /// Reads which messages `target` responds to, for adding it to
    /// `multiplexer`: the first step of every `add`, taken before the
    /// multiplexer changes anything or takes a lock, so that the target's
    /// `responds(to:)` may call the multiplexer (its `count`, its
    /// `responds(to:)`, even `add` and `remove`).
    ///
    /// - Returns: The responses, or `nil` when this thread is already adding
    ///   `target` to `multiplexer`: its `responds(to:)` added it again, and the
    ///   outer `add` registers it, once.
    /// - Complexity: O(*k*), where *k* is the number of messages, plus O(*d*)
    ///   for the *d* adds in progress on this thread.
    internal static func responses(
        of target: Schema.Target, id: ObjectIdentifier, addingTo multiplexer: AnyObject
    ) -> MessageSet<Schema.Key>? {
        let multiplexerAddress = UnsafeRawPointer(Unmanaged.passUnretained(multiplexer).toOpaque())
        let targetAddress = UnsafeRawPointer(bitPattern: UInt(bitPattern: id))
        var frame = fanout_add_frame()
        return withUnsafeMutablePointer(to: &frame) { frame in
            guard fanout_add_begin(frame, multiplexerAddress, targetAddress) != 0 else { return nil }
            defer { fanout_add_end(frame) }
            return Schema.respondedMessages(of: target)
        }
    }

    /// Records the target with identity `id`, which responds to `messages`.
    ///
    /// - Returns: `false`, changing nothing, when it was already registered.
    /// - Complexity: Amortized O(*k*), where *k* is the number of messages.
    @inlinable
    internal mutating func insert(id: ObjectIdentifier, messages: MessageSet<Schema.Key>) -> Bool {
        guard members.updateValue(messages, forKey: id) == nil else { return false }
        adjustCounts(for: messages, by: 1)
        return true
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
