/// What forwarding a message named at run time needs of a schema, built once per schema (by ``SchemaInfo``) and
/// shared by every ``SelectorDictionaryMultiplexer`` of it: the selectors' ordinals (a ``SelectorTable``) and
/// each message's forwarder, asked of its descriptor once. Never freed, so that `forward` calls a forwarder
/// without retaining it.
///
/// Sendable because nothing in it changes after it is built, and its forwarders are made by the library's
/// descriptors from immutable captures (the unpacker and the selector).
internal final class ForwardingTable<Schema: DelegateSchema>: @unchecked Sendable {
    /// The ordinal of every selector.
    let ordinals: SelectorTable

    /// Every message's forwarder, by ordinal, owned by the table (never freed) and so read unretained.
    let forwarders: ContiguousArray<Unmanaged<Forwarder>>

    /// The table of a schema whose messages, by ordinal, are `messages`.
    init(messages: [any MessageProtocol<Schema>]) {
        ordinals = SelectorTable(Schema.Key.allCases.map(\.rawValue))
        forwarders = ContiguousArray(messages.map { .passRetained(Forwarder($0.forwarder)) })
    }

    /// Only a table built by a thread that lost the race to register its schema's is freed: it releases its forwarders.
    deinit {
        for forwarder in forwarders { forwarder.release() }
    }

    /// The table of `Schema`, built when the schema was first checked: one lock and one dictionary lookup.
    ///   type.
    static var shared: ForwardingTable { SchemaInfo<Schema>.shared.forwarding }
}

/// A message's forwarder, in an object so that `forward` can borrow it without retaining its closure's context.
internal final class Forwarder {
    private let body: MessageForwarder

    init(_ body: @escaping MessageForwarder) { self.body = body }

    /// Calls the forwarder with `handlers` borrowed; returns the error it throws, if any.
    func forward(_ arguments: [Any], to handlers: Unmanaged<AnyClosureList>?, into answers: inout [Any?])
        -> ForwardingError?
    {
        guard let handlers else { return call(arguments, nil, &answers) }
        return handlers._withUnsafeGuaranteedRef { call(arguments, $0, &answers) }
    }

    private func call(_ arguments: [Any], _ handlers: AnyObject?, _ answers: inout [Any?]) -> ForwardingError? {
        do throws(ForwardingError) {
            try ForwardingError.only { try body(arguments, handlers, &answers) }
            return nil
        } catch {
            return error
        }
    }
}
