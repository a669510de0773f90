/// Why a dynamically forwarded message could not be delivered. Every case names the selector and what was
/// expected, so that the message of a failed `forward(_:arguments:)` call says how to fix it
/// (<doc:Strategies>, *selectorDictionary*).
public enum ForwardingError: Error, Equatable, CustomStringConvertible {
    /// The protocol has no message with this selector.
    case unrecognizedSelector(String, known: [String])
    /// The message takes a different number of arguments.
    case wrongArgumentCount(selector: String, expected: Int, actual: Int, expectedTypes: [String])
    /// An argument has the wrong type.
    case wrongArgumentType(selector: String, position: Int, expected: String, actual: String)

    /// A sentence naming the selector and what was expected.
    public var description: String {
        switch self {
        case .unrecognizedSelector(let selector, let known):
            "unrecognized selector '\(selector)'; known selectors: \(known.joined(separator: ", "))"
        case .wrongArgumentCount(let selector, let expected, let actual, let types):
            "'\(selector)' takes \(expected) argument\(expected == 1 ? "" : "s") (\(types.joined(separator: ", "))), got \(actual)"
        case .wrongArgumentType(let selector, let position, let expected, let actual):
            "'\(selector)' argument \(position) must be \(expected), got \(actual)"
        }
    }
}

/// Checks that a forwarded message has `count` arguments, building the expected `types` only for the error.
@usableFromInline @_alwaysEmitIntoClient
internal func checkCount(
    of values: [Any], selector: String, count: Int, types: () -> [Any.Type]
) throws(ForwardingError) {
    guard values.count == count else {
        throw .wrongArgumentCount(
            selector: selector, expected: count, actual: values.count,
            expectedTypes: types().map { String(reflecting: $0) })
    }
}

/// The argument at `position` of a forwarded message, whose count was checked, as a `T`.
@usableFromInline @_alwaysEmitIntoClient
internal func argument<T>(
    _ position: Int, of values: [Any], as type: T.Type, selector: String
) throws(ForwardingError) -> T {
    if let exact = exactly(values, at: position, as: T.self) { return exact }
    guard let value = values[position] as? T else {
        throw .wrongArgumentType(
            selector: selector, position: position, expected: String(reflecting: T.self),
            actual: String(reflecting: Swift.type(of: values[position])))
    }
    return value
}

extension ForwardingError {
    /// `body`'s result, or the ``ForwardingError`` it threw: the bridge from closures whose function types throw
    /// untyped errors (see ``MessageProtocol/forwarder``) to the typed-throws API.
    ///
    /// - Precondition: `body` throws nothing but a ``ForwardingError``.
    @usableFromInline @_alwaysEmitIntoClient
    internal static func only<Value>(_ body: () throws -> Value) throws(ForwardingError) -> Value {
        do {
            return try body()
        } catch let error as ForwardingError {
            throw error
        } catch {
            preconditionFailure("a forwarder threw \(type(of: error)), not a ForwardingError")
        }
    }
}
