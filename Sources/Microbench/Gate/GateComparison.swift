/// The verdict on one metric of one case.
public struct GateVerdict: Equatable, Sendable {
    public enum Outcome: String, Sendable {
        case pass, regression, improvement
        /// No baseline value, or no current value (e.g. valgrind missing).
        case skipped
        /// In the current run but not in the baseline.
        case new
    }

    public var caseName: String
    public var metric: String
    public var baseline: Double?
    public var current: Double?
    public var allowed: Double?
    public var outcome: Outcome
}

/// Compares current gate records with the baseline under the thresholds.
public struct GateComparison: Sendable {
    public var verdicts: [GateVerdict]
    /// Baseline cases the current run did not produce.
    public var missing: [String]

    public init(baseline: [GateRecord], current: [GateRecord], thresholds: GateThresholds) {
        let byName = Dictionary(baseline.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        verdicts = []
        for record in current {
            for metric in GateRecord.metrics {
                let now = record.values[metric]
                guard let reference = byName[record.name] else {
                    verdicts.append(.init(caseName: record.name, metric: metric, baseline: nil, current: now, allowed: nil, outcome: .new))
                    continue
                }
                let before = reference.values[metric]
                guard let before, let now, let rule = thresholds.rule(for: metric, record) else {
                    verdicts.append(.init(caseName: record.name, metric: metric, baseline: before, current: now, allowed: nil, outcome: .skipped))
                    continue
                }
                let allowed = before + max(rule.maxAbsoluteIncrease, before * rule.maxRelativeIncrease)
                let outcome: GateVerdict.Outcome = now > allowed + 1e-9 ? .regression : (now < before - 1e-9 ? .improvement : .pass)
                verdicts.append(.init(caseName: record.name, metric: metric, baseline: before, current: now, allowed: allowed, outcome: outcome))
            }
        }
        let currentNames = Set(current.map(\.name))
        missing = baseline.map(\.name).filter { !currentNames.contains($0) }
    }

    public var regressions: [GateVerdict] { verdicts.filter { $0.outcome == .regression } }
    public var improvements: [GateVerdict] { verdicts.filter { $0.outcome == .improvement } }

    /// Whether the gate passes: no regression and no baseline case missing.
    public var passes: Bool { regressions.isEmpty && missing.isEmpty }

    /// Every case and metric as a fixed-width table.
    public func table() -> String {
        var lines = [["case", "metric", "baseline", "current", "delta", "verdict"]]
        for verdict in verdicts {
            lines.append([
                verdict.caseName, verdict.metric, verdict.baseline.map(Self.format) ?? "-",
                verdict.current.map(Self.format) ?? "-", Self.delta(verdict), verdict.outcome.rawValue.uppercased(),
            ])
        }
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, text in text + String(repeating: " ", count: widths[column] - text.count) }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// A Markdown summary for a CI job: the verdict, regressions, improvements.
    public func markdown(notes: [String]) -> String {
        var text = "## Fanout regression gate: \(passes ? "passed" : "FAILED")\n\n"
        let counted = Dictionary(grouping: verdicts, by: \.outcome).mapValues(\.count)
        text += "\(verdicts.count) checks: " + GateVerdict.Outcome.allCasesInOrder.compactMap { outcome in
            counted[outcome].map { "\($0) \(outcome.rawValue)" }
        }.joined(separator: ", ") + ".\n\n"
        for note in notes { text += "> \(note)\n\n" }
        func section(_ title: String, _ rows: [GateVerdict]) {
            guard !rows.isEmpty else { return }
            text += "### \(title)\n\n| case | metric | baseline | current | delta |\n|---|---|---|---|---|\n"
            for row in rows {
                text += "| `\(row.caseName)` | \(row.metric) | \(row.baseline.map(Self.format) ?? "-") | \(row.current.map(Self.format) ?? "-") | \(Self.delta(row)) |\n"
            }
            text += "\n"
        }
        section("Regressions", regressions)
        if !missing.isEmpty { text += "### Missing cases\n\n" + missing.map { "- `\($0)`\n" }.joined() + "\n" }
        section("Improvements (lock them in with `swift run -c release bench baseline`)", improvements)
        return text
    }

    public static func format(_ value: Double) -> String { CSV.number((value * 100).rounded() / 100) }

    static func delta(_ verdict: GateVerdict) -> String {
        guard let before = verdict.baseline, let now = verdict.current else { return "-" }
        let difference = now - before
        let relative = before == 0 ? (difference == 0 ? "" : "") : " (\(difference >= 0 ? "+" : "")\(Report.fixed(difference / before * 100, decimals: 2))%)"
        return (difference >= 0 ? "+" : "") + format(difference) + relative
    }
}

extension GateVerdict.Outcome {
    static let allCasesInOrder: [Self] = [.regression, .improvement, .pass, .new, .skipped]
}
