import FanoutMicrobench

/// What a run prints when it is done: one screen (at most ``maximumLines``),
/// each family's lines in turn, and where the CSV and the charts are.
struct RunSummary {
    static let maximumLines = 60

    let rows: [ResultRow]
    let selection: Selection
    /// How long the run took; `nil` for a summary of a CSV (`bench summary`).
    let seconds: Double?
    let csvPath: String
    let chartsPath: String

    /// How far this run's published figures can be trusted here: the median interval a rerun falls in, where its
    /// between-run part comes from, and how far the run drifted over its processes (the C floor's cases, measured
    /// by every process); beyond ±5 %, the way to decide between close figures.
    var trust: [String] {
        let published = rows.filter { $0.interval != nil }
        let source = FigureSource(published)
        guard let median = source.medianInterval, let cpu = published.first?.metadata.cpu else { return [] }
        let (runs, recorded) = (source.runs, source.recorded)
        func percent(_ value: Double) -> String { Report.fixed(value * 100, decimals: 1) + " %" }
        var lines = [
            "trust: a rerun of this build here falls within ±\(percent(median)) of a published figure nine times in ten"
                + " (the median interval; "
                + (runs > 1
                    ? "each figure the mean of \(runs) full runs on \(cpu))"
                    : recorded > 0
                        ? "from this run's processes and \(recorded) full runs recorded on \(cpu))"
                        : "from this run's processes only: no run of \(cpu) is recorded, `bench combine` records three)")
        ]
        let drifts = published.filter { $0.strategy == "cFunctionPointer" }.compactMap(\.drift).sorted()
        if !drifts.isEmpty {
            let drift = Summary.quantile(0.5, ofSorted: drifts)
            lines.append(
                "drift: the C floor's figures moved \(drift >= 0 ? "+" : "")\(percent(drift)) from the run's first block of"
                    + " processes to its last (median over its cases)")
        }
        if median > FigureSource.repeatedWithin {
            lines.append(
                "beyond ±5 %: decide between close figures with an interleaved comparison (scripts/compare-builds),"
                    + " not two runs")
        }
        return lines
    }

    /// Where `scripts/plot` puts the charts of `csvPath`: `plots/` beside it.
    var plotsDirectory: String {
        let directory = csvPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (directory.isEmpty ? "" : directory + "/") + "plots/"
    }

    var lines: [String] {
        let metadata = rows.first?.metadata
        var lines = [
            "Fanout bench: \(rows.count) cases" + (seconds.map { " in \(Int($0.rounded())) s" } ?? "")
                + (metadata.map { " · \($0.cpu) · commit \($0.commit)" } ?? ""),
        ]
        lines += trust + PrimitivesFamily.summary(of: rows, selection: selection)
        for family in BenchmarkFamilies.all where family != PrimitivesFamily.self {
            let familyLines = family.summary(of: rows, selection: selection)
            if !familyLines.isEmpty { lines += [""] + familyLines }
        }
        lines += [
            "",
            "CSV: \(csvPath) (every case: `--format table`); charts: `scripts/plot \(csvPath)` draws them into "
                + "\(plotsDirectory)",
        ]
        if lines.count > Self.maximumLines {
            lines = Array(lines.prefix(Self.maximumLines - 1)) + ["… (\(lines.count - Self.maximumLines + 1) more lines: see the CSV)"]
        }
        return lines
    }
}

/// Where a set of published figures come from, and how far their intervals say they can be trusted: what the
/// summary's trust line and the decision table's notes say of them.
struct FigureSource {
    /// A published figure is marked `~` (`≈` in the decision table) when a rerun may land further than this from
    /// it: its interval's half-width beyond ±5 % (``ResultRow/interval``).
    static let repeatedWithin = 0.05

    /// Whether `row`'s interval is beyond ``repeatedWithin``.
    static func isLoose(_ row: ResultRow) -> Bool { (row.interval ?? 0) > repeatedWithin }

    /// How many full runs each figure is the mean of (1: one run).
    let runs: Int
    /// How many runs recorded on the CPU one run's intervals read (0: none).
    let recorded: Int
    /// How many fresh processes measured a figure (1: this process only).
    let processes: Int
    /// The median of the figures' intervals (``ResultRow/interval``); `nil` when none has one.
    let medianInterval: Double?

    init(_ rows: [ResultRow]) {
        runs = rows.compactMap(\.runs).max() ?? 1
        recorded = rows.compactMap(\.intervalRuns).max() ?? 0
        processes = rows.compactMap(\.processes).max() ?? 1
        let intervals = rows.compactMap(\.interval).sorted()
        medianInterval = intervals.isEmpty ? nil : Summary.quantile(0.5, ofSorted: intervals)
    }
}
