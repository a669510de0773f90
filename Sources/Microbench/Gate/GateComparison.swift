/// The verdict on one metric of one case.
public struct GateVerdict: Equatable, Sendable {
    public enum Outcome: String, Sendable {
        /// Within the tolerance of the baseline, either way.
        case pass
        /// Above the baseline by more than the tolerance.
        case regression
        /// Below the baseline by more than the tolerance: the code got better
        /// (or the instrument under-reports), and the baseline must be
        /// reviewed and re-recorded so that it tracks the code.
        case improvement
        /// No baseline value, or no current value (e.g. valgrind missing).
        case skipped
        /// In the current run but not in the baseline.
        case new
    }

    public var caseName: String
    public var metric: String
    public var baseline: Double?
    public var current: Double?
    /// The tolerance: how far `current` may stray from `baseline`, either way.
    public var tolerance: Double?
    public var outcome: Outcome

    /// The largest value that passes.
    public var allowed: Double? {
        guard let baseline, let tolerance else { return nil }
        return baseline + tolerance
    }
}

/// How a gate run ends, and the exit status `bench check` returns for it.
public enum GateStatus: Int32, Sendable {
    /// Every case within its tolerance.
    case pass = 0
    /// A regression, a baseline case the run did not produce, or, under CI,
    /// instruction counts that could not be measured.
    case fail = 1
    /// No regression, but the baseline no longer describes the code: a case
    /// improved beyond its tolerance, or (under CI) a case is not in the
    /// baseline. Review the change and run `bench baseline`.
    case staleBaseline = 3
}

/// Compares current gate records with the baseline under the thresholds.
public struct GateComparison: Sendable {
    public var verdicts: [GateVerdict]
    /// Baseline cases the current run did not produce.
    public var missing: [String]

    /// Compares `current` with `baseline`. A case may stray from its baseline
    /// by the larger of the rule's two allowances, upwards (more is a
    /// regression) and downwards (less is an improvement to record): the
    /// baseline always tracks the code.
    public init(baseline: [GateRecord], current: [GateRecord], thresholds: GateThresholds) {
        let byName = Dictionary(baseline.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        verdicts = []
        for record in current {
            for metric in GateRecord.metrics {
                let now = record.values[metric]
                guard let reference = byName[record.name] else {
                    verdicts.append(
                        .init(
                            caseName: record.name, metric: metric, baseline: nil, current: now, tolerance: nil,
                            outcome: .new))
                    continue
                }
                let before = reference.values[metric]
                guard let before, let now, let rule = thresholds.rule(for: metric, record) else {
                    verdicts.append(
                        .init(
                            caseName: record.name, metric: metric, baseline: before, current: now, tolerance: nil,
                            outcome: .skipped))
                    continue
                }
                let tolerance = Self.tolerance(of: rule, baseline: before)
                let outcome: GateVerdict.Outcome =
                    if now > before + tolerance + 1e-9 { .regression } else if now < before - tolerance - 1e-9 {
                        .improvement
                    } else { .pass }
                verdicts.append(
                    .init(
                        caseName: record.name, metric: metric, baseline: before, current: now, tolerance: tolerance,
                        outcome: outcome))
            }
        }
        let currentNames = Set(current.map(\.name))
        missing = baseline.map(\.name).filter { !currentNames.contains($0) }
    }

    /// How far a value may stray from `baseline` under `rule`.
    public static func tolerance(of rule: GateThresholds.Rule, baseline: Double) -> Double {
        max(rule.maxAbsoluteIncrease, baseline * rule.maxRelativeIncrease)
    }

    public var regressions: [GateVerdict] { verdicts.filter { $0.outcome == .regression } }
    public var improvements: [GateVerdict] { verdicts.filter { $0.outcome == .improvement } }
    /// The cases not in the baseline.
    public var newCases: [String] {
        var seen = Set<String>()
        return verdicts.filter { $0.outcome == .new }.map(\.caseName).filter { seen.insert($0).inserted }
    }

    /// Whether no regression happened and no baseline case is missing.
    public var passes: Bool { regressions.isEmpty && missing.isEmpty }

    /// The run's status: a failure first, then a stale baseline (improvements
    /// beyond tolerance; new cases too when `newCasesAreStale`, as under CI).
    public func status(newCasesAreStale: Bool) -> GateStatus {
        guard passes else { return .fail }
        if !improvements.isEmpty || (newCasesAreStale && !newCases.isEmpty) { return .staleBaseline }
        return .pass
    }

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
    public func markdown(status: GateStatus, notes: [String], reportOnly: Bool = false) -> String {
        let headline =
            switch status {
            case _ where reportOnly: "report only (no baseline for this platform)"
            case .pass: "passed"
            case .fail: "FAILED"
            case .staleBaseline: "FAILED: the baseline is stale"
            }
        var text = "## Fanout regression gate: \(headline)\n\n"
        let counted = Dictionary(grouping: verdicts, by: \.outcome).mapValues(\.count)
        text +=
            "\(verdicts.count) checks: "
            + GateVerdict.Outcome.allCasesInOrder.compactMap { outcome in
                counted[outcome].map { "\($0) \(outcome.rawValue)" }
            }.joined(separator: ", ") + ".\n\n"
        for note in notes { text += "> \(note)\n\n" }
        func section(_ title: String, _ rows: [GateVerdict]) {
            guard !rows.isEmpty else { return }
            text += "### \(title)\n\n| case | metric | baseline | current | delta |\n|---|---|---|---|---|\n"
            for row in rows {
                text +=
                    "| `\(row.caseName)` | \(row.metric) | \(row.baseline.map(Self.format) ?? "-") | \(row.current.map(Self.format) ?? "-") | \(Self.delta(row)) |\n"
            }
            text += "\n"
        }
        section("Regressions", regressions)
        if !missing.isEmpty { text += "### Missing cases\n\n" + missing.map { "- `\($0)`\n" }.joined() + "\n" }
        section("Improvements beyond tolerance (review, then `swift run -c release bench baseline`)", improvements)
        if !newCases.isEmpty {
            text +=
                "### New cases (record them with `bench baseline`)\n\n" + newCases.map { "- `\($0)`\n" }.joined() + "\n"
        }
        return text
    }

    public static func format(_ value: Double) -> String { CSV.number((value * 100).rounded() / 100) }

    static func delta(_ verdict: GateVerdict) -> String {
        guard let before = verdict.baseline, let now = verdict.current else { return "-" }
        let difference = now - before
        let sign = difference >= 0 ? "+" : ""
        let relative = before == 0 ? "" : " (\(sign)\(Report.fixed(difference / before * 100, decimals: 2))%)"
        return sign + format(difference) + relative
    }
}

extension GateVerdict.Outcome {
    static let allCasesInOrder: [Self] = [.regression, .improvement, .pass, .new, .skipped]
}
