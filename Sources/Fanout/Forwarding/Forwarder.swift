/// A message's forwarder, in an object so that `forward` can borrow it without retaining its closure's context; a
/// class of its own, not a generic box, so that a call of it needs no generic metadata (Notebook 77).
internal final class Forwarder {
    private let body: ForwarderBody

    init(_ body: @escaping ForwarderBody) { self.body = body }

    /// Calls the forwarder with `handlers` borrowed; returns the error it throws, if any.
    func forward(_ arguments: [Any], to handlers: Unmanaged<AnyResponderList>?, into answers: inout [Any?])
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
