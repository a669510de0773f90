import FanoutSupport

/// The registrations of one multiplexer, kept in step: which targets are registered, the messages each responds to,
/// how many targets respond to each message, and one value per target in registration order, which dispatches
/// iterate in place, pinned (``PinnedArray``). Every strategy keeps its registrations in one.
@usableFromInline
internal struct RegistrationTable<Schema: DelegateSchema, Value> {
    @frozen
    @usableFromInline
    internal struct Entry {
        @usableFromInline let id: ObjectIdentifier
        /// The messages the target responds to; cleared, in the buffers that dispatches in flight read, when the
        /// registration ends (``silenceEnded(where:)``).
        @usableFromInline var messages: KeySet<Schema.Key>
        @usableFromInline var value: Value  // `var` only to be lent in place (`lend`); written by `init` alone

        @usableFromInline @_alwaysEmitIntoClient
        init(id: ObjectIdentifier, messages: KeySet<Schema.Key>, value: Value) {
            self.id = id
            self.messages = messages
            self.value = value
        }
    }

    /// The registrations in order, in a buffer that dispatches iterate in place (see ``PinnedArray``).
    @usableFromInline
    internal private(set) var registrations = PinnedArray<Entry>()

    /// A copy of the registrations; the table's own methods read `registrations.elements` in place.
    @usableFromInline @_alwaysEmitIntoClient
    internal var entries: ContiguousArray<Entry> { registrations.elements }

    /// The registered identities, for O(1) duplicate checks.
    private var members: Set<ObjectIdentifier> = []

    private var responderCounts = [Int](repeating: 0, count: Schema.Key.allCases.count)

    /// The messages some registered target responds to: bit *i* set when `responderCounts[i] > 0`.
    internal private(set) var respondingBits: UInt64 = 0

    /// An empty table. Every multiplexer makes one first, so the schema's glue is checked here (``SchemaInfo``).
    @usableFromInline
    internal init() {
        SchemaInfo<Schema>.check()
    }

    /// Whether a target with identity `id` is registered, in O(1).
    internal func contains(_ id: ObjectIdentifier) -> Bool { members.contains(id) }

    internal var count: Int { registrations.elements.count }

    /// Whether any registered target responds to `key`, in O(1).
    internal func responds(to key: Schema.Key) -> Bool { responderCounts[key.caseIndex] > 0 }

    /// Appends a registration, in amortized O(*k*) for *k* messages; `false`, changing nothing, when `id` is
    /// registered already.
    @discardableResult
    internal mutating func append(_ value: Value, id: ObjectIdentifier, messages: KeySet<Schema.Key>) -> Bool {
        guard members.insert(id).inserted else { return false }
        registrations.modify { $0.append(Entry(id: id, messages: messages, value: value)) }
        adjustCounts(for: messages, by: 1)
        return true
    }

    /// Removes the registration of `id` and returns it, in O(*n*); `nil` when `id` was not registered.
    @discardableResult
    internal mutating func remove(_ id: ObjectIdentifier) -> Entry? {
        guard members.remove(id) != nil, let index = index(of: id) else { return nil }
        return removeEntry(at: index)
    }

    /// Removes the registration of `id` and returns it, in O(*n*), if `matches` accepts its value, read in place.
    @discardableResult
    internal mutating func remove(_ id: ObjectIdentifier, if matches: (Value) -> Bool) -> Entry? {
        guard members.contains(id), let index = index(of: id),
            registrations.elements.withUnsafeBufferPointer({ matches($0[index].value) })
        else { return nil }
        members.remove(id)
        return removeEntry(at: index)
    }

    /// The value of the registration of `id`, in O(*n*); `nil` when `id` is not registered.
    internal func value(of id: ObjectIdentifier) -> Value? {
        guard members.contains(id), let index = index(of: id) else { return nil }
        return registrations.elements[index].value
    }

    @inline(__always)
    private func index(of id: ObjectIdentifier) -> Int? {
        registrations.elements.withUnsafeBufferPointer { buffer in buffer.indices.first { buffer[$0].id == id } }
    }

    @inline(__always)
    private mutating func removeEntry(at index: Int) -> Entry {
        let entry = registrations.modify { $0.remove(at: index) }
        adjustCounts(for: entry.messages, by: -1)
        return entry
    }

    /// Removes the registrations whose values satisfy `shouldRemove`, releasing them inside this access: callers
    /// remove only registrations whose weak reference is gone, which own no target.
    internal mutating func removeAll(where shouldRemove: (Value) -> Bool) {
        // Each value read in place, through a pointer: no entry is copied.
        let any = registrations.elements.withUnsafeBufferPointer { entries in
            entries.indices.contains { shouldRemove((entries.baseAddress.unsafelyUnwrapped + $0).pointee.value) }
        }
        guard any else { return }
        var removed: [Entry] = []
        registrations.modify {
            $0.removeAll { entry in
                guard shouldRemove(entry.value) else { return false }
                removed.append(entry)
                return true
            }
        }
        for entry in removed {
            members.remove(entry.id)
            adjustCounts(for: entry.messages, by: -1)
        }
    }

    internal var isDispatching: Bool { registrations.isDispatching }

    /// The registrations' array, for a dispatch to pin: a change goes through the table's methods, which
    /// keep the identities and counts in step.
    @usableFromInline @_alwaysEmitIntoClient
    internal var pinned: PinnedArray<Entry> {
        _read { yield registrations }
        _modify { yield &registrations }
    }

    /// Stops the dispatches in flight from calling a registration that just ended (its owner went) and was removed:
    /// clears the messages of the entries `isEnded` names in the retired buffers, which every dispatch in flight
    /// reads (the removal retired the pinned buffer, unless an earlier change had); the buffers keep the entries,
    /// and so the targets, alive until the dispatches end. `isEnded` names the registration, not its identity: the
    /// same target removed and added again during the dispatch is another registration, which dispatches still call.
    internal mutating func silenceEnded(where isEnded: (Entry) -> Bool) {
        registrations.updateRetiredInPlace { entry in
            if isEnded(entry.pointee) { entry.pointee.messages = KeySet(bits: 0) }
        }
    }

    private mutating func adjustCounts(for messages: KeySet<Schema.Key>, by delta: Int) {
        // Over the set bits, which are the ordinals.
        var bits = messages.bits
        while bits != 0 {
            let ordinal = bits.trailingZeroBitCount
            responderCounts[ordinal] += delta
            if responderCounts[ordinal] > 0 {
                respondingBits |= 1 << ordinal
            } else {
                respondingBits &= ~(1 << ordinal)
            }
            bits &= bits &- 1
        }
    }

    /// Which messages `target`, whose identity is `id`, responds to: the first step of every `add`, read before
    /// `multiplexer` changes anything or takes a lock, so that the target's `responds(to:)` may call it (even `add` and
    /// `remove`); static, so that no access to a table is held meanwhile.
    ///
    /// - Returns: `nil` when this thread is already adding `target` to `multiplexer` (its `responds(to:)` added it
    ///   again): the outer `add` registers it, once.
    /// - Complexity: O(*k*) for *k* messages, plus O(*d*) for the *d* adds in progress on this thread.
    internal static func responses(
        of target: Schema.Target, id: ObjectIdentifier, addingTo multiplexer: AnyObject
    ) -> KeySet<Schema.Key>? {
        let bits: UInt64? = whileAdding(target: id, to: multiplexer) { Schema.respondedMessages(of: target).bits }
        guard let bits else { return nil }
        return KeySet(bits: bits)
    }

    /// Runs `body`, user code about the target whose identity is `id`, as a step of adding it to `multiplexer` on this
    /// thread: an `add` of the same target to the same multiplexer that `body` makes does nothing, and the outer `add`
    /// registers it, once.
    ///
    /// - Returns: `nil`, without running `body`, when this thread is already adding the target to `multiplexer`.
    @inline(__always)
    internal static func whileAdding<Step>(
        target id: ObjectIdentifier, to multiplexer: AnyObject, _ body: () -> Step
    ) -> Step? {
        let multiplexerAddress = UnsafeRawPointer(Unmanaged.passUnretained(multiplexer).toOpaque())
        let targetAddress = UnsafeRawPointer(bitPattern: UInt(bitPattern: id))
        var frame = fanout_add_frame()
        return withUnsafeMutablePointer(to: &frame) { frame in
            guard fanout_add_begin(frame, multiplexerAddress, targetAddress) != 0 else { return nil }
            defer { fanout_add_end(frame) }
            return body()
        }
    }
}
