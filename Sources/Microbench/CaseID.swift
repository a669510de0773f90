/// What identifies a case in everything the suite writes: its benchmark, the
/// strategy or peer measured, the message or operation, the fan-out width and
/// how many targets respond.
public struct CaseID: Hashable, Sendable, CustomStringConvertible {
    public var benchmark: String
    public var strategy: String
    public var message: String
    public var width: Int
    public var responders: Int

    public init(benchmark: String, strategy: String, message: String, width: Int, responders: Int) {
        self.benchmark = benchmark
        self.strategy = strategy
        self.message = message
        self.width = width
        self.responders = responders
    }

    /// The columns that hold a case's identity, first in every CSV the suite writes.
    public static let columns = ["benchmark", "strategy", "message", "width", "responders"]

    /// The identity's fields, in the order of ``columns``.
    public var fields: [String] { [benchmark, strategy, message, String(width), String(responders)] }

    /// `benchmark/strategy/message/width/responders`: what `--filter` matches.
    public var name: String { fields.joined(separator: "/") }

    public var description: String { name }
}
