import Foundation

/// A chart a benchmark family declares: which kind of chart `scripts/plot`
/// draws, from which rows, into which file. The bench writes the
/// declarations beside the CSV (`results.csv` → `results.charts.json`), so
/// the plotting script takes its charts, and every name in them, from the run.
public struct ChartSpec: Equatable, Sendable, Encodable {
    /// The file name, without extension, under `Results/plots/`.
    public var file: String
    /// The kind of chart, a function of `scripts/lib/plot.py` (`lines-by-message`,
    /// `counters`, `ratio-heatmap`, `overlay`, `setup`, `bars`).
    public var kind: String
    public var title: String
    /// The kind's parameters, such as the benchmark and message its rows come from.
    public var parameters: [String: String]

    public init(file: String, kind: String, title: String, parameters: [String: String] = [:]) {
        self.file = file
        self.kind = kind
        self.title = title
        self.parameters = parameters
    }

    /// Where the declarations of the charts of a results CSV go.
    public static func manifestPath(forCSV path: String) -> String {
        (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".charts.json"
    }

    /// The JSON the plotting script reads.
    public static func manifest(_ charts: [ChartSpec]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(charts), as: UTF8.self) + "\n"
    }
}
