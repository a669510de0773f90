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
        for family in BenchmarkFamilies.all {
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
