import Foundation

/// The full runs recorded for one CPU model (`Results/records/<cpu>.csv`, written by `bench combine`): how far whole
/// runs and each case moved between them, which a run's intervals take their between-run parts from
/// (``RerunInterval``), and the combined figures the project publishes.
public struct RunRecord: Sendable {
    /// The CPU model the runs were measured on.
    public let cpu: String
    /// How many full runs the record holds (rows of one run share its start time).
    public let runs: Int
    /// Each run's level, in the order the runs started: the median, over the cases every run measured, of the
    /// logarithm of the case's figure over its geometric mean over the runs. A run whose every case ran 3 % slow has a level
    /// near 0.03.
    public let levels: [Double]
    /// The standard deviation of ``levels``: how far whole runs move from one another on this CPU model.
    public let runLevel: Double
    /// Each case's spread between the runs beyond its run's level (the standard deviation of its logarithm's
    /// deviations, less each run's level), shrunk toward ``pooled`` (``RerunInterval/shrunk(_:toward:)``), by case name.
    public let between: [String: Double]
    /// The median of the cases' own spreads beyond their runs' levels.
    public let pooled: Double
    /// Each case's figures (ns per operation), one per run that measured it, in the order the runs started, by case
    /// name.
    public let figures: [String: [Double]]

    /// Where the record of `cpu` is: `Results/records/amd-epyc-2-cores.csv` for "AMD EPYC (2 cores)".
    public static func path(forCPU cpu: String, in directory: String = "Results/records") -> String {
        let slug = cpu.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
        return directory + "/" + slug + ".csv"
    }

    /// The record of the runs in `rows`: each run's rows share one start time (`timestamp`), and only the cases
    /// measured in several processes count.
    ///
    /// - Precondition: every row names the same CPU.
    public init(rows: [ResultRow]) {
        cpu = rows.first?.metadata.cpu ?? ""
        let starts = Array(Set(rows.map(\.metadata.timestamp))).sorted()
        runs = starts.count
        var figures: [String: [Double]] = [:]
        for start in starts {
            for row in rows where row.metadata.timestamp == start && (row.processes ?? 0) > 1 {
                figures[row.name, default: []].append(row.nanosecondsPerOperationMedian)
            }
        }
        self.figures = figures
        // Each case's deviations from its mean over the runs, in logarithms, for the cases every run measured.
        let deviations = figures.compactMapValues { values -> [Double]? in
            guard values.count == starts.count, values.count >= 2, values.allSatisfy({ $0 > 0 }) else { return nil }
            let logs = values.map { Foundation.log($0) }
            let mean = logs.reduce(0, +) / Double(logs.count)
            return logs.map { $0 - mean }
        }
        let levels = starts.indices.map { run -> Double in
            let deviations = deviations.values.map { $0[run] }.sorted()
            return deviations.isEmpty ? 0 : Summary.quantile(0.5, ofSorted: deviations)
        }
        self.levels = levels
        runLevel = RerunInterval.standardDeviation(levels)
        let own = deviations.mapValues { values in
            RerunInterval.standardDeviation(zip(values, levels).map { $0 - $1 }, around: 0)
        }
        let pooled = own.isEmpty ? 0 : Summary.quantile(0.5, ofSorted: own.values.sorted())
        self.pooled = pooled
        between = own.mapValues { RerunInterval.shrunk($0, toward: pooled) }
    }

    /// The between-run spread of the case named `name` beyond its run's level: its own shrunk toward the pool, or the
    /// pool's where the record lacks it.
    public func spread(of name: String) -> Double { between[name] ?? pooled }

    /// Whether the record can say anything: two runs or more, and a case that every run measured.
    public var isUsable: Bool { runs >= 2 && !between.isEmpty }

    /// The record of `cpu` under `directory`, or `nil` when none is committed.
    ///
    /// - Throws: ``CSV/ParseError`` when the file is malformed.
    public static func load(forCPU cpu: String, in directory: String = "Results/records") throws(CSV.ParseError)
        -> RunRecord?
    {
        let path = path(forCPU: cpu, in: directory)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let rows = try CSV.parse(String(decoding: data, as: UTF8.self), file: path)
        let record = RunRecord(rows: rows)
        return record.isUsable ? record : nil
    }

    /// Why `runs` (each the rows of one full run) cannot make a record: another build, commit, CPU or Swift, fewer
    /// than three runs, or fewer than three that started `minimumGap` seconds or more after one another (more runs
    /// may lie between them); `nil` when they can.
    public static func refusal(of runs: [[ResultRow]], minimumGap: Double = 20 * 60) -> String? {
        guard runs.count >= 3 else { return "a record takes at least three full runs, got \(runs.count)" }
        let firsts = runs.map { $0.first?.metadata }
        guard let first = firsts.first ?? nil, firsts.allSatisfy({ $0 != nil }) else { return "a run has no rows" }
        for run in runs where Set(run.map(\.metadata.timestamp)).count > 1 {
            return "a file holds the rows of several runs (the first started \(run[0].metadata.timestamp));"
                + " give each run's own CSV"
        }
        let timestamps = firsts.compactMap { $0?.timestamp }
        if let twice = timestamps.first(where: { start in timestamps.filter { $0 == start }.count > 1 }) {
            return "two of the files are the run started \(twice); a record takes each run once"
        }
        for metadata in firsts.compactMap({ $0 }) {
            if let (what, a, b) = first.differences(from: metadata).first {
                return "the runs differ in their \(what): \(a) and \(b); a record is one build on one CPU"
            }
        }
        let formatter = ISO8601DateFormatter()
        let starts = firsts.compactMap { $0.flatMap { formatter.date(from: $0.timestamp) } }.sorted()
        guard starts.count == runs.count else { return "a run's start time cannot be read" }
        // Three of the runs, at least, each `minimumGap` after the one before: runs in between add to the estimate
        // of the run level but do not stand for the machine's modes.
        var spaced = [starts[0]]
        for start in starts.dropFirst() where start.timeIntervalSince(spaced.last!) >= minimumGap {
            spaced.append(start)
        }
        if spaced.count < 3 {
            return "only \(spaced.count) of the runs started at least \(Int(minimumGap / 60)) min after one another;"
                + " a record takes three such runs at least, so that it sees the machine's modes"
        }
        return nil
    }

    /// One row per case of `runs`: the mean of the runs' figures (each timing column the mean of the runs'), the
    /// counts and the other columns of the first run, the interval a rerun falls inside nine times out of ten
    /// (``RerunInterval``: between the runs only, scaled for a mean of `runs.count`), and ``ResultRow/runs``.
    public static func combined(_ runs: [[ResultRow]]) -> [ResultRow] {
        let record = RunRecord(rows: runs.flatMap { $0 })
        let byName = runs.map { Dictionary($0.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
        return runs[0].map { first in
            let rows = byName.compactMap { $0[first.name] }
            func mean(_ value: (ResultRow) -> Double) -> Double { rows.map(value).reduce(0, +) / Double(rows.count) }
            var row = first
            row.nanosecondsPerOperationMedian = mean(\.nanosecondsPerOperationMedian)
            row.nanosecondsPerOperationP10 = mean(\.nanosecondsPerOperationP10)
            row.nanosecondsPerOperationP90 = mean(\.nanosecondsPerOperationP90)
            row.nanosecondsPerOperationMinimum = mean(\.nanosecondsPerOperationMinimum)
            row.nanosecondsPerDelivery = mean(\.nanosecondsPerDelivery)
            row.deliveriesPerSecond = row.nanosecondsPerDelivery > 0 ? 1e9 / row.nanosecondsPerDelivery : 0
            row.runs = rows.count
            if (first.processes ?? 0) > 1 {
                let interval = RerunInterval(
                    meanOf: rows.count, between: record.spread(of: first.name), runLevel: record.runLevel,
                    recorded: record.runs)
                row.interval = interval.halfWidth
                row.intervalRuns = rows.count
                row.drift = nil
            }
            return row
        }
    }
}
