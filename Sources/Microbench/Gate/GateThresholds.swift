/// How much each metric may grow over the baseline before `bench check`
/// fails, read from `Results/thresholds.csv`:
///
/// ```
/// metric,benchmark,strategy,max_absolute_increase,max_relative_increase
/// mallocs_per_op,*,*,0,0
/// instructions_per_op,*,*,0,0.02
/// instructions_per_op,dispatch,selectorDictionary,0,0.03
/// ```
///
/// A case may exceed its baseline by the larger of the two allowances. The
/// most specific row wins: an exact strategy over `*`, then an exact
/// benchmark over `*`. Every metric needs a row that matches every case.
public struct GateThresholds: Equatable, Sendable {
    public struct Rule: Equatable, Sendable {
        public var metric: String
        public var benchmark: String
        public var strategy: String
        public var maxAbsoluteIncrease: Double
        public var maxRelativeIncrease: Double
        public var line: Int

        var specificity: Int { (strategy == "*" ? 0 : 2) + (benchmark == "*" ? 0 : 1) }

        func matches(_ record: GateRecord) -> Bool {
            (benchmark == "*" || benchmark == record.benchmark) && (strategy == "*" || strategy == record.strategy)
        }
    }

    public var rules: [Rule]

    public static let columns = ["metric", "benchmark", "strategy", "max_absolute_increase", "max_relative_increase"]

    /// The rule that applies to `metric` for `record`, if any.
    public func rule(for metric: String, _ record: GateRecord) -> Rule? {
        rules.filter { $0.metric == metric && $0.matches(record) }.max { $0.specificity < $1.specificity }
    }

    /// Reads a thresholds CSV.
    ///
    /// - Throws: ``CSV/ParseError`` naming the file and line: a wrong header
    ///   or field count, an unknown metric, a negative or non-numeric
    ///   allowance, a duplicate rule, or a metric without a catch-all rule.
    public static func parse(_ text: String, file: String) throws(CSV.ParseError) -> GateThresholds {
        let records = try CSV.records(in: text, file: file)
        guard let header = records.first else {
            throw CSV.ParseError(file: file, line: 1, reason: "empty file, expected a header")
        }
        guard header.fields == columns else {
            throw CSV.ParseError(
                file: file, line: header.line, reason: "header must be \(columns.joined(separator: ","))")
        }
        var rules: [Rule] = []
        for record in records.dropFirst() {
            let fields = record.fields
            guard fields.count == columns.count else {
                throw CSV.ParseError(
                    file: file, line: record.line, reason: "expected \(columns.count) fields, got \(fields.count)")
            }
            guard GateRecord.metrics.contains(fields[0]) else {
                throw CSV.ParseError(
                    file: file, line: record.line,
                    reason: "unknown metric '\(fields[0])' (known: \(GateRecord.metrics.joined(separator: ", ")))")
            }
            func allowance(_ index: Int) throws(CSV.ParseError) -> Double {
                guard let value = Double(fields[index]), value.isFinite, value >= 0 else {
                    throw CSV.ParseError(
                        file: file, line: record.line,
                        reason: "\(columns[index]) must be a non-negative number, got '\(fields[index])'")
                }
                return value
            }
            let rule = Rule(
                metric: fields[0], benchmark: fields[1], strategy: fields[2], maxAbsoluteIncrease: try allowance(3),
                maxRelativeIncrease: try allowance(4), line: record.line)
            guard !rule.benchmark.isEmpty, !rule.strategy.isEmpty else {
                throw CSV.ParseError(
                    file: file, line: record.line, reason: "benchmark and strategy must be a name or *")
            }
            if let earlier = rules.first(where: {
                $0.metric == rule.metric && $0.benchmark == rule.benchmark && $0.strategy == rule.strategy
            }) {
                throw CSV.ParseError(
                    file: file, line: record.line, reason: "duplicates the rule on line \(earlier.line)")
            }
            rules.append(rule)
        }
        for metric in GateRecord.metrics
        where !rules.contains(where: { $0.metric == metric && $0.benchmark == "*" && $0.strategy == "*" }) {
            throw CSV.ParseError(
                file: file, line: records.last?.line ?? 1, reason: "no catch-all rule (\(metric),*,*,…) for \(metric)")
        }
        return GateThresholds(rules: rules)
    }
}
