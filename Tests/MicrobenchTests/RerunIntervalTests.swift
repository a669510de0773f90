import FanoutMicrobench
import Foundation
import Testing

/// How far a published figure can be trusted (`RerunInterval`, `RunRecord`): the interval's construction from the
/// processes' time blocks and the runs recorded for the CPU, the record and the combined results, and the marks the
/// summary puts on a loose figure.
@Suite("Intervals that cover a rerun")
struct RerunIntervalTests {
    /// 120 processes' medians around 10 ns: steady (a fixed ±2 % pattern), or drifting by 20 % over the run.
    static let pattern: [Double] = [-1, 0, 1, 0.5, -0.5]
    static let steady: [Double] = (0..<120).map { index in 10 * (1 + 0.02 * pattern[index % 5]) }
    static let drifting: [Double] = (0..<120).map { index in
        let trend: Double = 10 * (1 + 0.2 * Double(index) / 119)
        return trend + 0.2 * pattern[index % 5]
    }

    @Test("a set of processes that drifts over the run widens the interval; a steady one does not")
    func driftWidens() {
        func interval(_ values: [Double]) -> (RerunInterval, Double?) {
            let figure = ProcessFigure(values).figure
            let blocks = RerunInterval.blockFigures(values)
            return (
                RerunInterval(within: RerunInterval.within(blocks: blocks, figure: figure), between: 0, runs: 0),
                RerunInterval.drift(blocks: blocks)
            )
        }
        let (steady, steadyDrift) = interval(Self.steady)
        let (drifting, drift) = interval(Self.drifting)
        #expect(steady.halfWidth < 0.01, "\(steady.halfWidth)")
        #expect(drifting.halfWidth > 0.08, "\(drifting.halfWidth)")
        #expect(abs(steadyDrift ?? 1) < 0.01)
        #expect((drift ?? 0) > 0.15, "the last block is about 17 % above the first")
        #expect(RerunInterval.blockFigures(Self.steady).count == 6)
        #expect(RerunInterval.blockFigures([1, 2, 3]).isEmpty, "too few processes to say")
    }

    @Test("the between-run spreads widen the interval, the run level bounded on its own; a mean of runs narrows it")
    func betweenRuns() {
        let alone = RerunInterval(within: 0.01, runs: 0)
        let recorded = RerunInterval(within: 0.01, between: 0.03, runLevel: 0.02, runs: 3)
        #expect(abs(alone.halfWidth - 1.645 * (2 * 0.0001).squareRoot()) < 1e-12)
        let expected = 2.squareRoot() * (4.303 * 0.02 + 1.645 * (0.0001 + 0.0009).squareRoot())
        #expect(abs(recorded.halfWidth - expected) < 1e-12, "t for 2 degrees of freedom, added to the case's part")
        let mean = RerunInterval(meanOf: 3, between: 0.03, runLevel: 0.02)
        #expect(abs(mean.halfWidth - (4.0 / 3).squareRoot() * (4.303 * 0.02 + 1.645 * 0.03)) < 1e-12)
        #expect(abs(RerunInterval(meanOf: 3, between: 0.03, runLevel: 0).halfWidth - (4.0 / 3).squareRoot() * 1.645 * 0.03) < 1e-12)
        // A mean of ten runs against one of three, the level's t from the ten recorded runs in both.
        let ten = RerunInterval(meanOf: 10, between: 0.03, runLevel: 0.02)
        let threeOfTen = RerunInterval(meanOf: 3, between: 0.03, runLevel: 0.02, recorded: 10)
        #expect(abs(ten.halfWidth - (1.1).squareRoot() * (2.262 * 0.02 + 1.645 * 0.03)) < 1e-12)
        #expect(ten.halfWidth < threeOfTen.halfWidth && threeOfTen.halfWidth < mean.halfWidth)
        #expect(abs(RerunInterval.shrunk(0.1, toward: 0.02) - ((0.01 + 0.0004) / 2).squareRoot()) < 1e-12)
        // The quantile: the table, then the expansion, which meets the exact 2.086 (20) and 2.042 (30).
        #expect(RerunInterval.t975(degreesOfFreedom: 2) == 4.303 && RerunInterval.t975(degreesOfFreedom: 0) == 12.706)
        #expect(abs(RerunInterval.t975(degreesOfFreedom: 20) - 2.086) < 0.002)
        #expect(abs(RerunInterval.t975(degreesOfFreedom: 30) - 2.042) < 0.002)
        #expect(abs(RerunInterval.t975(degreesOfFreedom: 11) - 2.201) < 0.003)
    }

    /// A run's rows of two published cases (measured in 120 processes) and one measured in the run's own process,
    /// started at `start`, each figure scaled by `scale`.
    static func run(start: String, scale: Double, commit: String = "abc") -> [ResultRow] {
        let metadata = RunMetadata(
            swiftVersion: "Swift 6.3.1", commit: commit, host: "vm", cpu: "Test CPU (2 cores)", timestamp: start,
            build: "release")
        return [("dispatch/existentialArray/didScroll/4/4", 8.0, 120), ("dispatch/weakArray/didScroll/4/4", 90.0, 120),
                ("setup/existentialArray/add/4/4", 400.0, 1)].map { name, ns, processes in
            let parts = name.split(separator: "/").map(String.init)
            return ResultRow(
                benchmark: parts[0], strategy: parts[1], message: parts[2], width: 4, responders: 4, samples: 2,
                iterations: 100, nanosecondsPerOperationMedian: ns * scale, nanosecondsPerOperationP10: ns * scale,
                nanosecondsPerOperationP90: ns * scale, nanosecondsPerOperationMinimum: ns * scale,
                nanosecondsPerDelivery: ns * scale / 4, deliveriesPerSecond: 0, counts: nil, relativeSpread: 0.01,
                processes: processes > 1 ? processes : nil, metadata: metadata)
        }
    }

    @Test("three runs make a record: the runs' levels, each case's spread beyond them, and the combined figures")
    func recordAndCombined() throws {
        let scales = [1, 1.04, 0.97]
        let runs = [
            Self.run(start: "2026-11-29T01:00:00Z", scale: scales[0]),
            Self.run(start: "2026-11-29T01:25:00Z", scale: scales[1]),
            Self.run(start: "2026-11-29T01:50:00Z", scale: scales[2]),
        ]
        #expect(RunRecord.refusal(of: runs) == nil)
        let record = RunRecord(rows: runs.flatMap { $0 })
        #expect(record.runs == 3 && record.cpu == "Test CPU (2 cores)")
        #expect(record.figures["dispatch/existentialArray/didScroll/4/4"] == [8, 8 * 1.04, 8 * 0.97])
        #expect(record.figures["setup/existentialArray/add/4/4"] == nil, "measured in one process: not recorded")
        // Every case moved with its run: the runs' levels hold it all, and no case moved on its own.
        let logs = scales.map { Foundation.log($0) }
        let mean = logs.reduce(0, +) / 3
        #expect(zip(record.levels, logs).allSatisfy { abs($0 - ($1 - mean)) < 1e-12 })
        let level = (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 2).squareRoot()
        #expect(abs(record.runLevel - level) < 1e-12)
        #expect(record.pooled < 1e-12 && record.spread(of: "other") < 1e-12)
        let combined = RunRecord.combined(runs)
        let strong = try #require(combined.first { $0.strategy == "existentialArray" && $0.benchmark == "dispatch" })
        #expect(abs(strong.nanosecondsPerOperationMedian - 8 * (1 + 1.04 + 0.97) / 3) < 1e-9)
        #expect(strong.runs == 3 && strong.intervalRuns == 3)
        let interval = RerunInterval(meanOf: 3, between: record.spread(of: strong.name), runLevel: level)
        #expect(abs(strong.interval! - interval.halfWidth) < 1e-12)
        let setup = try #require(combined.first { $0.benchmark == "setup" })
        #expect(setup.interval == nil && setup.runs == 3)
        #expect(RunRecord.path(forCPU: "AMD EPYC (2 cores)") == "Results/records/amd-epyc-2-cores.csv")
    }

    @Test("a case that moves on its own between runs gets its own spread, not the run level")
    func caseSpreadIsItsOwn() {
        // Four steady cases and weakArray's, which moves by 10 % from run to run.
        let runs = [1, 1.1, 0.9].enumerated().map { index, scale in
            var rows = Self.run(start: "2026-11-29T0\(index + 1):00:00Z", scale: 1)
            rows[1].nanosecondsPerOperationMedian *= scale
            return rows + (1...3).map { copy in
                var row = rows[0]
                row.strategy = "steady\(copy)"
                return row
            }
        }
        let record = RunRecord(rows: runs.flatMap { $0 })
        #expect(record.runLevel < 1e-12, "the runs' other cases did not move: \(record.runLevel)")
        let moving = record.spread(of: "dispatch/weakArray/didScroll/4/4")
        let steady = record.spread(of: "dispatch/existentialArray/didScroll/4/4")
        #expect(moving > 0.05 && moving > 2 * steady, "\(moving) against \(steady)")
    }

    @Test("a record refuses fewer than three runs, fewer than three 20 min apart, and runs of two builds")
    func recordRefusals() {
        let first = Self.run(start: "2026-11-29T01:00:00Z", scale: 1)
        let late = Self.run(start: "2026-11-29T01:30:00Z", scale: 1)
        #expect(RunRecord.refusal(of: [first, late])?.contains("at least three full runs") == true)
        let close = [first, Self.run(start: "2026-11-29T01:10:00Z", scale: 1), Self.run(start: "2026-11-29T02:00:00Z", scale: 1)]
        #expect(RunRecord.refusal(of: close)?.contains("only 2 of the runs started at least 20 min") == true)
        let between = close + [Self.run(start: "2026-11-29T01:25:00Z", scale: 1)]
        #expect(RunRecord.refusal(of: between) == nil, "three 20 min apart, and one among them")
        let builds = [first, late, Self.run(start: "2026-11-29T02:00:00Z", scale: 1, commit: "def")]
        #expect(RunRecord.refusal(of: builds)?.contains("differ in their commit") == true)
        let third = Self.run(start: "2026-11-29T02:00:00Z", scale: 1)
        #expect(RunRecord.refusal(of: [first, first, late, third])?.contains("two of the files are the run") == true)
        #expect(RunRecord.refusal(of: [first + late, late, third])?.contains("rows of several runs") == true)
    }

    @Test("a record of one run, or of runs that share no case, says nothing; a case a run lacks takes the pool's")
    func recordEdges() throws {
        #expect(!RunRecord(rows: Self.run(start: "2026-11-29T01:00:00Z", scale: 1)).isUsable)
        var runs = [1, 1.04, 0.97].enumerated().map { index, scale in
            Self.run(start: "2026-11-29T0\(index + 1):00:00Z", scale: scale)
        }
        runs[1].remove(at: 1)  // the second run lacks weakArray's case
        let record = RunRecord(rows: runs.flatMap { $0 })
        #expect(record.isUsable && record.levels.count == 3)
        #expect(record.figures["dispatch/weakArray/didScroll/4/4"]?.count == 2)
        #expect(record.between["dispatch/weakArray/didScroll/4/4"] == nil)
        #expect(record.spread(of: "dispatch/weakArray/didScroll/4/4") == record.pooled)
        let disjoint = [Self.run(start: "2026-11-29T01:00:00Z", scale: 1), Self.run(start: "2026-11-29T02:00:00Z", scale: 1)]
            .enumerated().flatMap { index, rows in rows.map { row in
                var row = row
                row.strategy += "\(index)"
                return row
            } }
        #expect(!RunRecord(rows: disjoint).isUsable, "no case in both runs")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = RunRecord.path(forCPU: "Test CPU (2 cores)", in: folder.path)
        try CSV.render(disjoint).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try RunRecord.load(forCPU: "Test CPU (2 cores)", in: folder.path) == nil)
        try CSV.render(runs.flatMap { $0 }).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try RunRecord.load(forCPU: "Test CPU (2 cores)", in: folder.path)?.runs == 3)
    }

    @Test("a merged figure carries its interval: its processes' blocks and the record's spread for its case")
    func mergeCarriesTheInterval() throws {
        let runs = [
            Self.run(start: "2026-11-29T01:00:00Z", scale: 1), Self.run(start: "2026-11-29T01:25:00Z", scale: 1.1),
            Self.run(start: "2026-11-29T01:50:00Z", scale: 0.9),
        ]
        let record = RunRecord(rows: runs.flatMap { $0 })
        let own = Self.run(start: "2026-11-29T03:00:00Z", scale: 1)
        let name = "dispatch/existentialArray/didScroll/4/4"
        let repeats = [name: Self.steady.map { value in
            var row = own[0]
            row.nanosecondsPerOperationMedian = value
            return row
        }]
        let alone = ProcessRepeats.merge(own, repeats: repeats).rows[0]
        let recorded = ProcessRepeats.merge(own, repeats: repeats, record: record).rows[0]
        #expect(alone.intervalRuns == 0 && recorded.intervalRuns == 3)
        #expect(try #require(alone.interval) < 0.01)
        #expect(try #require(recorded.interval) > 0.15, "the record's 10 % spread between runs")
        #expect(alone.drift != nil)
        #expect(ProcessRepeats.merge(own, repeats: repeats).rows[2].interval == nil, "a case of one process")
    }

    @Test("the interval columns go through the CSV, and a file written before them reads with none")
    func columns() throws {
        var row = Self.run(start: "2026-11-29T01:00:00Z", scale: 1)[0]
        row.interval = 0.0312
        row.intervalRuns = 3
        row.drift = -0.012
        row.runs = 3
        let read = try CSV.parse(CSV.render([row]), file: "test")
        #expect(read == [row])
        let legacy = CSV.render([Self.run(start: "2026-11-29T01:00:00Z", scale: 1)[0]])
            .split(separator: "\n").map { line in
                line.split(separator: ",", omittingEmptySubsequences: false).enumerated()
                    .filter { !(23...26).contains($0.offset) }.map(\.element).joined(separator: ",")
            }.joined(separator: "\n") + "\n"
        let old = try CSV.parse(legacy, file: "legacy")
        #expect(old.count == 1 && old[0].interval == nil && old[0].runs == nil)
    }

    @Test("bench summary marks a figure whose interval is beyond ±5 % with ~, and opens with how far to trust it")
    func summaryMarksLooseFigures() throws {
        var rows = try CSV.parse(
            try String(contentsOfFile: packageRoot + "/Results/results.csv", encoding: .utf8), file: "committed")
        for index in rows.indices where rows[index].processes ?? 0 > 1 {  // as one run's, with no record to read
            rows[index].interval = rows[index].name == "dispatch/existentialArray/didScroll/4/4" ? 0.08 : 0.02
            rows[index].intervalRuns = 0
            rows[index].runs = nil
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try CSV.render(rows).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runBench(["summary", path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("trust: a rerun of this build here falls within ±2.0 %"), "\(lines[1])")
        #expect(lines[1].contains("from this run's processes only"))
        let table = try #require(lines.first { $0.hasPrefix("existentialArray ") })
        let didScroll = table.split(separator: " ", omittingEmptySubsequences: true).dropFirst().prefix(3)
        #expect(didScroll.map { $0.hasSuffix("~") } == [false, true, false], "\(table)")
        #expect(lines.contains { $0.contains("~ marks the 1 beyond ±5 %") })
    }

    @Test(
        "the cold pass as bench wires it empties the caches before each counted operation",
        // A sanitizer build has no cold cases: eviction records allocations with the counting hooks it compiles out.
        .enabled(if: Subprocess.find("valgrind") != nil && Eviction.isAvailable))
    func coldPassEvicts() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let output = folder.output
        let result = try runBench([
            "--filter", "^cold/existentialArray/didScroll/16/16$", "--processes", "1", "--samples", "1", "--rounds",
            "1", "--output", output, "--no-progress",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try CSV.parse(try String(contentsOfFile: output, encoding: .utf8), file: output)
        let misses = try #require(rows.first?.cacheMissesPerDelivery, "\(result.standardError)")
        // Each delivery reads its target and the entry that names it, at least one line apart from the last: a sweep
        // that evicted nothing would leave them cached, a fraction of a line per delivery.
        #expect(misses >= 1, "\(misses) last-level misses per delivery")
    }
}
