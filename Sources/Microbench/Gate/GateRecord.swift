/// The counts of one gate case: what `bench baseline` records and
/// `bench check` compares.
public struct GateRecord: Equatable, Sendable {
    public var benchmark: String
    public var strategy: String
    public var message: String
    public var width: Int
    public var responders: Int
    /// Metric name → value per message. Metrics: see ``GateRecord/metrics``.
    public var values: [String: Double]

    /// The gated metrics, in report order.
    public static let metrics = ["mallocs_per_op", "retains_per_op", "releases_per_op", "instructions_per_op"]

    public static let columns = CaseID.columns + metrics

    public init(
        benchmark: String, strategy: String, message: String, width: Int, responders: Int, values: [String: Double]
    ) {
        self.benchmark = benchmark
        self.strategy = strategy
        self.message = message
        self.width = width
        self.responders = responders
        self.values = values
    }

    /// The case's identity.
    public var id: CaseID {
        CaseID(benchmark: benchmark, strategy: strategy, message: message, width: width, responders: responders)
    }

    /// The case's name, which `--filter` matches: `benchmark/strategy/message/width/responders`.
    public var name: String { id.name }

    /// The baseline CSV of `records`.
    public static func render(_ records: [GateRecord]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for record in records {
            let fields = record.id.fields + metrics.map { record.values[$0].map(CSV.number) ?? "" }
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Reads a baseline CSV.
    ///
    /// - Throws: ``CSV/ParseError`` naming the file and line: a wrong header,
    ///   a wrong field count, a value that is not a non-negative number, or a
    ///   case listed twice.
    public static func parse(_ text: String, file: String) throws(CSV.ParseError) -> [GateRecord] {
        let records = try CSV.records(in: text, file: file)
        guard let header = records.first else {
            throw CSV.ParseError(file: file, line: 1, reason: "empty file, expected a header")
        }
        guard header.fields == columns else {
            throw CSV.ParseError(
                file: file, line: header.line, reason: "header must be \(columns.joined(separator: ","))")
        }
        var result: [GateRecord] = []
        var seen: Set<String> = []
        for record in records.dropFirst() {
            let fields = record.fields
            guard fields.count == columns.count else {
                throw CSV.ParseError(
                    file: file, line: record.line, reason: "expected \(columns.count) fields, got \(fields.count)")
            }
            guard let width = Int(fields[3]), width > 0, let responders = Int(fields[4]), responders >= 0 else {
                throw CSV.ParseError(
                    file: file, line: record.line, reason: "width and responders must be whole numbers")
            }
            var values: [String: Double] = [:]
            for (offset, metric) in metrics.enumerated() where !fields[5 + offset].isEmpty {
                guard let value = Double(fields[5 + offset]), value.isFinite, value >= 0 else {
                    throw CSV.ParseError(
                        file: file, line: record.line,
                        reason: "\(metric) must be a non-negative number, got '\(fields[5 + offset])'")
                }
                values[metric] = value
            }
            let gateRecord = GateRecord(
                benchmark: fields[0], strategy: fields[1], message: fields[2], width: width, responders: responders,
                values: values)
            guard seen.insert(gateRecord.name).inserted else {
                throw CSV.ParseError(file: file, line: record.line, reason: "\(gateRecord.name) is listed twice")
            }
            result.append(gateRecord)
        }
        return result
    }
}
