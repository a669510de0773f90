import Synchronization

/// What forwarding a message named at run time needs of a schema, built once
/// per schema and shared by every ``SelectorDictionaryStorage`` of it: the
/// selectors' ordinals (a ``SelectorTable``) and each message's forwarder,
/// asked of its descriptor once.
///
/// A table is never freed, so `forward` calls a forwarder without retaining
/// it. Built per storage, the forwarders and the lookup table cost about a
/// dozen allocations for every multiplexer made, forwarding or not.
///
/// Sendable because nothing in it changes after it is built, and the
/// forwarders it holds are made by the library's descriptors from immutable
/// captures (the unpacker and the selector).
internal final class ForwardingTable<Schema: DelegateSchema>: @unchecked Sendable {
    /// The ordinal of every selector.
    let ordinals: SelectorTable

    /// Every message's forwarder, by ordinal. Unretained: the table, which is
    /// never freed, owns them.
    let forwarders: ContiguousArray<Unmanaged<Forwarder>>

    private init() {
        let names = Schema.Key.allCases.map(\.rawValue)
        ordinals = SelectorTable(names)
        var forwarders = [MessageForwarder?](repeating: nil, count: names.count)
        for message in Schema.messages { forwarders[message.key.ordinal] = message.forwarder }
        self.forwarders = ContiguousArray(forwarders.enumerated().map { ordinal, forwarder in
            guard let forwarder else { preconditionFailure("\(Schema.self).messages has no descriptor for '\(names[ordinal])'") }
            return .passRetained(Forwarder(forwarder))
        })
    }

    /// The table of `Schema`, built on first use.
    ///
    /// - Complexity: O(1) after the first use: one lock and one dictionary
    ///   lookup by the schema's type.
    static var shared: ForwardingTable {
        let key = ObjectIdentifier(Schema.self)
        if let table = ForwardingTables.locked({ $0[key] }) { return unsafeDowncast(table, to: ForwardingTable.self) }
        // Built outside the lock, as the schema's descriptors are user code;
        // when two threads race, the first table stored is the one kept.
        let built = ForwardingTable()
        return unsafeDowncast(ForwardingTables.locked { tables in
            if let table = tables[key] { return table }
            tables[key] = built
            return built
        }, to: ForwardingTable.self)
    }
}

/// The forwarding tables built so far, by schema.
private enum ForwardingTables {
    typealias Tables = [ObjectIdentifier: any AnyObject & Sendable]

    static let all = Mutex<Tables>([:])

    /// An object whose address stands for the lock in ThreadSanitizer's
    /// annotations.
    private final class Token: Sendable {}
    private static let token = Token()

    /// Runs `body` under the lock, annotated for ThreadSanitizer: without the
    /// annotations, two threads building the first table of a schema at once
    /// were reported as a race on `all`.
    static func locked<Value>(_ body: (inout sending Tables) -> sending Value) -> sending Value {
        all.withAnnotatedLock(at: UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque()), body)
    }
}

/// A message's forwarder, in an object so that `forward` can borrow it
/// (through `Unmanaged`) without retaining its closure's context.
internal final class Forwarder {
    private let body: MessageForwarder

    init(_ body: @escaping MessageForwarder) { self.body = body }

    /// Calls the forwarder with `handlers` borrowed; the error it throws, if
    /// any.
    func forward(_ arguments: [Any], to handlers: Unmanaged<ClosureListBase>?, into answers: inout [Any?]) -> ForwardingError? {
        guard let handlers else { return call(arguments, nil, &answers) }
        return handlers._withUnsafeGuaranteedRef { call(arguments, $0, &answers) }
    }

    private func call(_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) -> ForwardingError? {
        do throws(ForwardingError) {
            try body(arguments, handlers, &answers)
            return nil
        } catch {
            return error
        }
    }
}
