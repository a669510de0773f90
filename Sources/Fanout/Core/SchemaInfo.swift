import FanoutSupport

/// What Fanout knows of a schema once it has checked its glue: every message's descriptor, selector ordinal and
/// forwarder, by ordinal. Built the first time a multiplexer or a static composition of the schema is made, shared
/// by all of them, never freed, so that `forward` calls a forwarder without retaining it.
///
/// Sendable because nothing in it changes after it is built, and its forwarders are made by the library's
/// descriptors from immutable captures (the unpacker and the selector).
///
/// The check runs once per schema, in every build, and refuses, naming schema and message, glue that would make the
/// strategies disagree (one would drop a message another delivers, or call a target twice):
/// - every key's `ordinal` is its position in `allCases`, and there are at most 64 keys (a key set is 64 bits);
/// - no two keys have the same selector (forwarding by name finds a key by its selector);
/// - `messages` lists one descriptor per key: none left out, none twice;
/// - `visitMessages`, when it visits anything, visits each key once, with the descriptor type `messages` lists.
@usableFromInline
package final class SchemaInfo<Schema: DelegateSchema>: @unchecked Sendable {
    let messages: [any MessageProtocol<Schema>]

    let ordinals: SelectorTable

    /// Every message's forwarder, by ordinal, owned by this never-freed object and so read unretained.
    let forwarders: ContiguousArray<Unmanaged<Forwarder>>

    let keys: [Schema.Key]

    /// The key whose selector is `selector`, or `nil` when the protocol has no such message: one hash, one probe.
    @usableFromInline
    func key(forSelector selector: String) -> Schema.Key? {
        ordinals.ordinal(of: selector).map { keys[$0] }
    }

    private init() {
        let keys = Array(Schema.Key.allCases)
        let schema = "\(Schema.self)"
        let keyType = "\(Schema.Key.self)"
        refuse(unless: !keys.isEmpty, "\(schema): \(keyType) has no cases")
        refuse(unless: keys.count <= 64, "\(schema): \(keyType) has \(keys.count) cases; a schema has at most 64")
        for (position, key) in keys.enumerated() {
            refuse(
                unless: key.ordinal == position,
                "\(schema): \(keyType).ordinal of '\(key.rawValue)' is \(key.ordinal), not its position in allCases, \(position) (implement `ordinal`, or list allCases in declaration order)"
            )
            refuse(
                unless: key.caseIndex == position,
                "\(schema): '\(key.rawValue)' is declared at index \(key.caseIndex) of \(keyType) but is at position \(position) of allCases: deliveries read a one-byte key's case index; declare the cases in the order of allCases"
            )
        }
        ordinals = SelectorTable(keys.map { $0.rawValue }) {
            "\(schema): two of \(keyType)'s cases have the selector '\($0)'"
        }
        let listed = Self.byOrdinal(Schema.messages, keys: keys, source: "\(schema).messages")
        var visitor = MessageCollector<Schema>()
        Schema.visitMessages(&visitor)
        if !visitor.messages.isEmpty {
            let visited = Self.byOrdinal(visitor.messages, keys: keys, source: "\(schema).visitMessages")
            for (ordinal, message) in visited.enumerated() {
                refuse(
                    unless: type(of: message) == type(of: listed[ordinal]),
                    "\(schema).visitMessages visits '\(keys[ordinal].rawValue)' as \(type(of: message)), but \(schema).messages lists it as \(type(of: listed[ordinal]))"
                )
            }
        }
        messages = listed
        forwarders = ContiguousArray(listed.map { .passRetained(Forwarder($0.forwarder)) })
        self.keys = keys
    }

    /// Only the information built by a thread that lost the race to register its schema's is freed: it releases
    /// its forwarders.
    deinit {
        for forwarder in forwarders { forwarder.release() }
    }

    /// `messages` by ordinal, refusing a key left out or listed twice.
    private static func byOrdinal(
        _ messages: [any MessageProtocol<Schema>], keys: [Schema.Key], source: String
    ) -> [any MessageProtocol<Schema>] {
        var slots = [(any MessageProtocol<Schema>)?](repeating: nil, count: keys.count)
        for message in messages {
            let ordinal = message.key.ordinal
            refuse(unless: slots[ordinal] == nil, "\(source) lists '\(message.key.rawValue)' twice")
            slots[ordinal] = message
        }
        return slots.enumerated().map { ordinal, message in
            guard let message else { refuse("\(source) has no descriptor for '\(keys[ordinal].rawValue)'") }
            return message
        }
    }

    /// The schema's information, checked and built on first use; after that, one lock and one dictionary lookup.
    @usableFromInline
    static var shared: SchemaInfo {
        let key = ObjectIdentifier(Schema.self)
        if let info = withSchemaRegistry({ $0[key] }) { return unsafeDowncast(info, to: SchemaInfo.self) }
        // Built outside the lock, as the glue is user code; when two threads race, the first one stored is kept.
        let built = SchemaInfo()
        return unsafeDowncast(
            withSchemaRegistry { registry in
                if let info = registry[key] { return info }
                registry[key] = built
                return built
            }, to: SchemaInfo.self)
    }

    /// Checks the schema's glue, once per schema; see ``SchemaInfo``.
    @usableFromInline
    package static func check() {
        _ = shared
    }
}

/// Stops the program with `message` unless `condition` holds, in every build: `fatalError`, as optimized builds
/// drop `precondition`'s message.
private func refuse(unless condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { refuse(message()) }
}

private func refuse(_ message: String) -> Never {
    fatalError(message)
}

/// The schemas checked so far, by type; read and written only by ``withSchemaRegistry(_:)``.
nonisolated(unsafe) private var schemaRegistry: [ObjectIdentifier: AnyObject] = [:]

/// Runs `body` with the schema registry's lock held.
private func withSchemaRegistry<Value>(_ body: (inout [ObjectIdentifier: AnyObject]) -> Value) -> Value {
    fanout_registry_lock()
    defer { fanout_registry_unlock() }
    return body(&schemaRegistry)
}

/// Collects the descriptors a schema visits.
internal struct MessageCollector<Schema: DelegateSchema>: MessageVisitor {
    var messages: [any MessageProtocol<Schema>] = []

    mutating func visit<Arguments, Result>(_ message: Message<Schema, Arguments, Result>) {
        messages.append(message)
    }
}
