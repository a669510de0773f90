import Foundation
import FanoutMicrobench
import Testing

private let header = GateRecord.columns.joined(separator: ",")
private let thresholdsText = """
    metric,benchmark,strategy,max_absolute_increase,max_relative_increase
    mallocs_per_op,*,*,0,0
    retains_per_op,*,*,0,0
    releases_per_op,*,*,0,0
    instructions_per_op,*,*,0,0.02
    instructions_per_op,dispatch,selectorDictionary,0,0.10
    """

private func record(_ strategy: String = "closureTable", mallocs: Double = 0, instructions: Double? = 1000) -> GateRecord {
    var values = ["mallocs_per_op": mallocs, "retains_per_op": 2, "releases_per_op": 2]
    values["instructions_per_op"] = instructions
    return GateRecord(benchmark: "dispatch", strategy: strategy, message: "didScroll", width: 16, responders: 16, values: values)
}

@Suite("Regression gate")
struct GateTests {
    let thresholds = try! GateThresholds.parse(thresholdsText, file: "thresholds.csv")

    @Test("the baseline round-trips")
    func baselineRoundTrips() throws {
        let records = [record(), record("existentialArray", instructions: nil)]
        #expect(try GateRecord.parse(GateRecord.render(records), file: "baseline.csv") == records)
    }

    @Test("an unchanged run passes")
    func unchangedPasses() {
        let comparison = GateComparison(baseline: [record()], current: [record()], thresholds: thresholds)
        #expect(comparison.passes)
        #expect(comparison.status(newCasesAreStale: true) == .pass)
        #expect(comparison.verdicts.allSatisfy { $0.outcome == .pass })
    }

    @Test("one more allocation per message is a regression that names the case")
    func extraAllocationFails() {
        let comparison = GateComparison(baseline: [record()], current: [record(mallocs: 1)], thresholds: thresholds)
        #expect(!comparison.passes)
        #expect(comparison.status(newCasesAreStale: false) == .fail)
        #expect(comparison.regressions.map(\.metric) == ["mallocs_per_op"])
        #expect(comparison.table().contains("dispatch/closureTable/didScroll/16/16  mallocs_per_op"))
        #expect(comparison.markdown(status: .fail, notes: []).contains("`dispatch/closureTable/didScroll/16/16` | mallocs_per_op"))
    }

    @Test("a value exactly at the limit passes; one hundredth over is a regression, either way for the ratchet",
          arguments: [(1020.0, GateVerdict.Outcome.pass), (1020.01, .regression), (980, .pass), (979.99, .improvement)])
    func limits(current: Double, expected: GateVerdict.Outcome) {
        let comparison = GateComparison(baseline: [record()], current: [record(instructions: current)], thresholds: thresholds)
        let verdict = comparison.verdicts.first { $0.metric == "instructions_per_op" }
        #expect(verdict?.outcome == expected)
        #expect(verdict?.allowed == 1020)
    }

    @Test("a zero tolerance allows nothing: one allocation more fails, one fewer is stale")
    func zeroTolerance() {
        let more = GateComparison(baseline: [record(mallocs: 1)], current: [record(mallocs: 2)], thresholds: thresholds)
        #expect(more.status(newCasesAreStale: false) == .fail)
        let fewer = GateComparison(baseline: [record(mallocs: 1)], current: [record(mallocs: 0)], thresholds: thresholds)
        #expect(fewer.improvements.map(\.metric) == ["mallocs_per_op"])
        #expect(fewer.status(newCasesAreStale: false) == .staleBaseline)
        #expect(fewer.markdown(status: .staleBaseline, notes: []).contains("bench baseline"))
    }

    @Test("an improvement of 10 % across all cases makes the baseline stale (the ratchet)")
    func ratchet() {
        let baseline = ["closureTable", "existentialArray", "weakArray"].map { record($0, instructions: 1000) }
        let current = ["closureTable", "existentialArray", "weakArray"].map { record($0, instructions: 900) }
        let comparison = GateComparison(baseline: baseline, current: current, thresholds: thresholds)
        #expect(comparison.passes)
        #expect(comparison.improvements.count == 3)
        #expect(comparison.status(newCasesAreStale: false) == .staleBaseline)
        #expect(GateStatus.staleBaseline.rawValue == 3 && GateStatus.fail.rawValue == 1 && GateStatus.pass.rawValue == 0)
    }

    @Test("a case missing from the baseline is new: reported, and stale only under CI")
    func newCases() {
        let comparison = GateComparison(baseline: [record()], current: [record(), record("weakArray")], thresholds: thresholds)
        #expect(comparison.newCases == ["dispatch/weakArray/didScroll/16/16"])
        #expect(comparison.verdicts.filter { $0.outcome == .new }.count == GateRecord.metrics.count)
        #expect(comparison.status(newCasesAreStale: false) == .pass)
        #expect(comparison.status(newCasesAreStale: true) == .staleBaseline)
    }

    @Test("a baseline case the run did not produce fails")
    func missingCase() {
        let missing = GateComparison(baseline: [record(), record("existentialArray")], current: [record()], thresholds: thresholds)
        #expect(!missing.passes)
        #expect(missing.missing == ["dispatch/existentialArray/didScroll/16/16"])
        #expect(missing.status(newCasesAreStale: false) == .fail)
    }

    @Test("a metric missing on one side is skipped, not passed silently as a number")
    func skipped() {
        let comparison = GateComparison(baseline: [record(instructions: nil)], current: [record()], thresholds: thresholds)
        #expect(comparison.passes)
        #expect(comparison.verdicts.first { $0.metric == "instructions_per_op" }?.outcome == .skipped)
    }

    // MARK: Rules

    /// Rules for instructions: a catch-all, one naming only a benchmark, one
    /// naming only a strategy, and one naming both.
    static let precedence = try! GateThresholds.parse("""
        metric,benchmark,strategy,max_absolute_increase,max_relative_increase
        mallocs_per_op,*,*,0,0
        retains_per_op,*,*,0,0
        releases_per_op,*,*,0,0
        instructions_per_op,*,*,0,0.01
        instructions_per_op,setup,*,0,0.02
        instructions_per_op,*,weakArray,0,0.03
        instructions_per_op,setup,weakArray,0,0.04
        """, file: "thresholds.csv")

    @Test("the most specific rule wins: both named, then the strategy, then the benchmark, then the catch-all",
          arguments: [
              ("setup", "weakArray", 0.04), ("dispatch", "weakArray", 0.03), ("setup", "closureTable", 0.02),
              ("dispatch", "closureTable", 0.01),
          ])
    func rulePrecedence(benchmark: String, strategy: String, allowance: Double) {
        let subject = GateRecord(benchmark: benchmark, strategy: strategy, message: "m", width: 1, responders: 1, values: [:])
        #expect(Self.precedence.rule(for: "instructions_per_op", subject)?.maxRelativeIncrease == allowance)
        #expect(Self.precedence.rule(for: "mallocs_per_op", subject)?.maxRelativeIncrease == 0)
    }

    @Test("a rule naming only the strategy beats one naming only the benchmark when both match")
    func strategyBeatsBenchmark() throws {
        let withoutBoth = try GateThresholds.parse("""
            metric,benchmark,strategy,max_absolute_increase,max_relative_increase
            mallocs_per_op,*,*,0,0
            retains_per_op,*,*,0,0
            releases_per_op,*,*,0,0
            instructions_per_op,*,*,0,0.01
            instructions_per_op,setup,*,0,0.02
            instructions_per_op,*,weakArray,0,0.03
            """, file: "thresholds.csv")
        let subject = GateRecord(benchmark: "setup", strategy: "weakArray", message: "m", width: 1, responders: 1, values: [:])
        #expect(withoutBoth.rule(for: "instructions_per_op", subject)?.maxRelativeIncrease == 0.03)
    }

    @Test("a rule naming a benchmark applies to that benchmark only")
    func benchmarkMatching() {
        let setup = GateRecord(benchmark: "setup", strategy: "x", message: "m", width: 1, responders: 1,
                               values: ["instructions_per_op": 1015])
        let dispatch = GateRecord(benchmark: "dispatch", strategy: "x", message: "m", width: 1, responders: 1,
                                  values: ["instructions_per_op": 1015])
        var baseline = [setup, dispatch]
        for index in baseline.indices { baseline[index].values["instructions_per_op"] = 1000 }
        let comparison = GateComparison(baseline: baseline, current: [setup, dispatch], thresholds: Self.precedence)
        #expect(comparison.regressions.map(\.caseName) == ["dispatch/x/m/1/1"], "+1.5 % is within setup's 2 %, not dispatch's 1 %")
    }

    // MARK: Callgrind dumps and the estimate

    static func dump(_ label: String?, summary: UInt64?, totals: UInt64? = nil) -> String {
        var text = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd: bench gate-instructions\npart: 2\n"
        if let label { text += "desc: Trigger: Client Request: \(label)\n" }
        text += "events: Ir\nfn=(1) main\n0 12\n"
        if let summary { text += "summary: \(summary)\n" }
        if let totals { text += "totals: \(totals)\n" }
        return text
    }

    @Test("a dump's label and total are read; the exit dump has no label")
    func parsesDumps() throws {
        let parsed = try Callgrind.parseDump(Self.dump("a/b#short0", summary: 1234, totals: 1234), file: "callgrind.out.2")
        #expect(parsed?.label == "a/b#short0")
        #expect(parsed?.total == 1234)
        #expect(try Callgrind.parseDump(Self.dump("a/b#long0", summary: nil, totals: 99), file: "f")?.total == 99)
        #expect(try Callgrind.parseDump(Self.dump(nil, summary: 5), file: "callgrind.out") == nil)
    }

    @Test("a dump with a missing or an extra section is an error naming the file", arguments: [
        (dump("a#short0", summary: nil), "f: no total in the dump of 'a#short0'"),
        (dump("a#short0", summary: 10, totals: 11), "f: summary 10 and totals 11 disagree"),
        (dump("a#short0", summary: 10) + "summary: 12\n", "f: two summaries"),
        (dump("a#short0", summary: 10) + "desc: Trigger: Client Request: b\n", "f: two client-request labels"),
        (dump("a#short0", summary: nil) + "totals: many\n", "f: unreadable total"),
    ])
    func malformedDumps(text: String, expected: String) {
        let error = #expect(throws: Callgrind.DumpError.self) { try Callgrind.parseDump(text, file: "f") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("instructions per operation: the median of (long − short) ÷ 40 over the three repeats")
    func estimateArithmetic() throws {
        let pass = InstructionPass()
        #expect(pass.shortIterations == 10 && pass.longIterations == 50 && pass.repeats == 3)
        var totals: [String: UInt64] = ["warm-up": 999_999]
        // Per operation: 100, 110.25 and 500 (a one-off cost in the third long window).
        for (index, (short, long)) in [(2_000, 6_000), (2_000, 6_410), (2_000, 22_000)].enumerated() {
            let labels = pass.labels(of: "dispatch/x/m/1/1", repeat: index)
            totals[labels.short] = UInt64(short)
            totals[labels.long] = UInt64(long)
        }
        #expect(try pass.instructionsPerOperation(of: ["dispatch/x/m/1/1"], totals: totals) == ["dispatch/x/m/1/1": 110.25])
        totals[pass.labels(of: "dispatch/x/m/1/1", repeat: 1).long] = nil
        let missing = #expect(throws: InstructionPass.EstimateError.self) {
            try pass.instructionsPerOperation(of: ["dispatch/x/m/1/1"], totals: totals)
        }
        #expect(missing?.description == "callgrind wrote no dump for dispatch/x/m/1/1 (repeat 1)")
    }

    @Test("the pass's body of known length must read exactly its length: a hundredth off is an error naming both",
          .enabled(if: InstructionPass.isCalibrated, "x86-64 and arm64 run the calibration loop exactly"))
    func calibrationIsExact() throws {
        let pass = InstructionPass()
        let name = InstructionPass.calibration.name
        func totals(perOperation: Double) -> [String: UInt64] {
            var totals: [String: UInt64] = [:]
            for index in 0..<pass.repeats {
                let labels = pass.labels(of: name, repeat: index)
                totals[labels.short] = 300
                totals[labels.long] = 300 + UInt64(perOperation * Double(pass.longIterations - pass.shortIterations))
            }
            return totals
        }
        #expect(try pass.checkCalibration(totals: totals(perOperation: 20)) == 20)
        // What the pass read before each window was opened by a dump of its own: the step of the loop over the labels, about 160
        // instructions, fell in every short window after the first.
        let off = #expect(throws: InstructionPass.EstimateError.self) {
            try pass.checkCalibration(totals: totals(perOperation: 15.95))
        }
        #expect(off?.description == "the instruction pass is off: it read 15.95 instructions per operation for a body of exactly 20.0")
        #expect(throws: InstructionPass.EstimateError.self) { try pass.checkCalibration(totals: totals(perOperation: 20.025)) }
    }

    @Test("under callgrind, a gate run reads the body of known length exactly (CI=true fails otherwise)",
          .enabled(if: Subprocess.find("valgrind") != nil && Callgrind.isAvailable && !Counters.areCompiledOutForSanitizer,
                   "needs valgrind and a build with callgrind.h, without a sanitizer"))
    func calibratedUnderCallgrind() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let filter = "^dispatch/floor/didScroll/1/1$"
        let common = [
            "--baseline", directory + "/baseline.csv", "--thresholds", packageRoot + "/Results/thresholds.csv",
            "--filter", filter, "--no-progress", "--summary", directory + "/summary.md", "--records", directory + "/current.csv",
        ]
        let recorded = try runBench(["baseline"] + common, environment: ["CI": "false"])
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let checked = try runBench(["check"] + common, environment: ["CI": "true"])
        #expect(checked.status == 0, "\(checked.standardOutput)\n\(checked.standardError)")
        #expect(checked.standardError.contains("read exactly that"), "\(checked.standardError)")
    }

    @Test("dumps read from a directory; two dumps of one label are an error, but for warm-up and gap dumps")
    func totalsFromDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-dumps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, text) in [Self.dump("warm-up", summary: 7), Self.dump("a#short0", summary: 100),
                              Self.dump("warm-up", summary: 8), Self.dump("gap", summary: 3), Self.dump("gap", summary: 4),
                              Self.dump(nil, summary: 1)].enumerated() {
            try text.write(toFile: "\(directory)/callgrind.out.\(index + 1)", atomically: true, encoding: .utf8)
        }
        try "unrelated".write(toFile: "\(directory)/other.txt", atomically: true, encoding: .utf8)
        #expect(try Callgrind.totals(inDirectory: directory, prefix: "callgrind.out")["a#short0"] == 100)
        try Self.dump("a#short0", summary: 101).write(toFile: "\(directory)/callgrind.out.9", atomically: true, encoding: .utf8)
        #expect(throws: Callgrind.DumpError.self) { try Callgrind.totals(inDirectory: directory, prefix: "callgrind.out") }
    }

    @Test("a malformed baseline names the file and line", arguments: [
        ("", "baseline.csv:1: empty file"),
        ("benchmark,strategy\n", "baseline.csv:1: header must be"),
        ("HEADER\ndispatch,floor,didScroll,1,1,0,0,0\n", "baseline.csv:2: expected 9 fields, got 8"),
        ("HEADER\ndispatch,floor,didScroll,1,1,0,0,0,1\ndispatch,floor,didScroll,x,1,0,0,0,1\n",
         "baseline.csv:3: width and responders must be whole numbers"),
        ("HEADER\ndispatch,floor,didScroll,1,1,-1,0,0,1\n", "baseline.csv:2: mallocs_per_op must be a non-negative number, got '-1'"),
        ("HEADER\ndispatch,floor,didScroll,1,1,0,0,0,1\ndispatch,floor,didScroll,1,1,0,0,0,1\n",
         "baseline.csv:3: dispatch/floor/didScroll/1/1 is listed twice"),
    ])
    func malformedBaseline(text: String, expected: String) {
        let input = text.replacingOccurrences(of: "HEADER", with: header)
        let error = #expect(throws: CSV.ParseError.self) { try GateRecord.parse(input, file: "baseline.csv") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("malformed thresholds name the file and line", arguments: [
        ("metric,benchmark\n", "thresholds.csv:1: header must be"),
        ("HEADER\nmallocs_per_op,*,*,0\n", "thresholds.csv:2: expected 5 fields, got 4"),
        ("HEADER\nallocs,*,*,0,0\n", "thresholds.csv:2: unknown metric 'allocs'"),
        ("HEADER\nmallocs_per_op,*,*,-1,0\n", "thresholds.csv:2: max_absolute_increase must be a non-negative number"),
        ("HEADER\nmallocs_per_op,*,*,0,two\n", "thresholds.csv:2: max_relative_increase must be a non-negative number"),
        ("HEADER\nmallocs_per_op,*,*,0,0\nmallocs_per_op,*,*,0,0\n", "thresholds.csv:3: duplicates the rule on line 2"),
        ("HEADER\nmallocs_per_op,*,*,0,0\n", "thresholds.csv:2: no catch-all rule (retains_per_op,*,*,…)"),
    ])
    func malformedThresholds(text: String, expected: String) {
        let input = text.replacingOccurrences(of: "HEADER", with: GateThresholds.columns.joined(separator: ","))
        let error = #expect(throws: CSV.ParseError.self) { try GateThresholds.parse(input, file: "thresholds.csv") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("bench check rejects a missing or malformed baseline or thresholds file with status 2, naming file and line")
    func checkRejectsBadFiles() throws {
        let missing = try runBench(["check", "--baseline", "/nonexistent/baseline.csv", "--no-progress"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent/baseline.csv: missing"))
        let path = FileManagerTemporaryFile.write("benchmark,strategy\n")
        defer { FileManagerTemporaryFile.remove(path) }
        let malformed = try runBench(["check", "--baseline", path, "--no-progress"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("\(path):1: header must be"))
        let thresholds = FileManagerTemporaryFile.write(
            GateThresholds.columns.joined(separator: ",") + "\nmallocs_per_op,*,*,0,0\ninstructions,*,*,0,0\n")
        defer { FileManagerTemporaryFile.remove(thresholds) }
        let badThresholds = try runBench([
            "check", "--baseline", packageRoot + "/" + BaselineClaimsTests.documented.baselinePath, "--thresholds", thresholds, "--no-progress",
        ])
        #expect(badThresholds.status == 2)
        #expect(badThresholds.standardError.contains("\(thresholds):3: unknown metric 'instructions'"), "\(badThresholds.standardError)")
    }
}

/// `bench baseline` and `bench check` end to end, on one case, against a
/// baseline the test records and then doctors (allocation and ARC counts
/// only: this is the test build, not the release build the committed
/// baseline describes).
@Suite(
    "Regression gate, end to end",
    .enabled(if: !Counters.areCompiledOut, "the bench executable counts nothing in a sanitizer build or off glibc"))
struct GateEndToEndTests {
    static let filter = "^dispatch/existentialArray/didScroll/16/16$"

    func gate(_ subcommand: String, baseline: String, in directory: String) throws -> SubprocessResult {
        try runBench([
            subcommand, "--baseline", baseline, "--thresholds", packageRoot + "/Results/thresholds.csv",
            "--filter", Self.filter, "--no-instructions", "--no-progress", "--summary", directory + "/summary.md",
            "--records", directory + "/current.csv",
        ], environment: ["CI": "false"])
    }

    @Test("a recorded baseline passes; a doctored one fails with 1 (regression) or 3 (stale), naming the case")
    func doctoredBaseline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/baseline.csv"
        let recorded = try gate("baseline", baseline: path, in: directory)
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let records = try GateRecord.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(records.map(\.name) == ["dispatch/existentialArray/didScroll/16/16"])
        let retains = try #require(records.first?.values["retains_per_op"])
        #expect(retains >= 1)

        let unchanged = try gate("check", baseline: path, in: directory)
        #expect(unchanged.status == 0, "\(unchanged.standardOutput)")
        #expect(unchanged.standardOutput.contains("gate: PASS"))
        #expect(try String(contentsOfFile: directory + "/current.csv", encoding: .utf8) == GateRecord.render(records))

        var doctored = records
        doctored[0].values["retains_per_op"] = retains - 1
        try GateRecord.render(doctored).write(toFile: path, atomically: true, encoding: .utf8)
        let regression = try gate("check", baseline: path, in: directory)
        #expect(regression.status == 1)
        #expect(regression.standardOutput.contains("REGRESSION dispatch/existentialArray/didScroll/16/16 retains_per_op"))

        doctored[0].values["retains_per_op"] = retains + 1
        try GateRecord.render(doctored).write(toFile: path, atomically: true, encoding: .utf8)
        let stale = try gate("check", baseline: path, in: directory)
        #expect(stale.status == 3)
        #expect(stale.standardOutput.contains("IMPROVEMENT dispatch/existentialArray/didScroll/16/16 retains_per_op"))
        #expect(stale.standardOutput.contains("bench baseline"))
    }

    @Test("bench baseline with a filter re-records the matching cases and keeps the others")
    func filteredBaselineMerges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/baseline.csv"
        let other = GateRecord(
            benchmark: "dispatch", strategy: "closureTable", message: "didScroll", width: 1, responders: 1,
            values: ["mallocs_per_op": 7, "retains_per_op": 7, "releases_per_op": 7, "instructions_per_op": 7])
        var stale = other
        stale.strategy = "existentialArray"
        stale.width = 16
        stale.responders = 16
        try GateRecord.render([other, stale]).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try gate("baseline", baseline: path, in: directory).status == 0)
        let records = try GateRecord.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(records.map(\.name) == [other.name, stale.name])
        #expect(records[0] == other)
        #expect(records[1].values["retains_per_op"] != 7, "re-recorded")
        #expect(records[1].values["instructions_per_op"] == nil, "re-recorded without instructions")
    }

    @Test("a platform without a baseline of its own is measured and reported, not gated, even with CI=true")
    func reportOnlyWithoutAPlatformBaseline() throws {
        // In an empty directory, the default baseline (this platform's, a relative path) does not exist.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try runBench([
            "check", "--thresholds", packageRoot + "/Results/thresholds.csv", "--filter", Self.filter,
            "--no-instructions", "--no-progress", "--summary", directory + "/summary.md",
            "--records", directory + "/current.csv", "--benchmark-json", directory + "/counts.json",
        ], environment: ["CI": "true"], in: directory)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let platform = GatePlatform.current()
        #expect(result.standardOutput.contains("gate: REPORT ONLY (1 cases measured; no baseline for \(platform)"))
        let summary = try String(contentsOfFile: directory + "/summary.md", encoding: .utf8)
        #expect(summary.hasPrefix("## Fanout regression gate: report only"))
        #expect(summary.contains(platform.baselinePath))
        let records = try GateRecord.parse(String(contentsOfFile: directory + "/current.csv", encoding: .utf8), file: "current.csv")
        #expect(records.map(\.name) == ["dispatch/existentialArray/didScroll/16/16"], "the records to commit as the baseline")
        let json = try String(contentsOfFile: directory + "/counts.json", encoding: .utf8)
        #expect(json.contains("\"name\" : \"dispatch/existentialArray/didScroll/16/16 retains_per_op\""))
    }

    @Test("bench platform names the platform and the baseline the gate uses for it")
    func platformSubcommand() throws {
        let result = try runBench(["platform"])
        #expect(result.status == 0)
        let platform = GatePlatform.current()
        #expect(result.standardOutput == "\(platform.name) Results/baselines/\(platform.name).csv\n")
        #expect(platform.swiftVersion != "unknown", "swift --version is readable")
    }
}

@Suite("Gate platforms and the continuous-benchmarking JSON")
struct GatePlatformTests {
    @Test("the compiler version is read from swift --version, Linux's and Apple's")
    func swiftVersion() {
        #expect(GatePlatform.swiftVersion(in: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64") == "6.3.1")
        #expect(GatePlatform.swiftVersion(in: "swift-driver version: 1.120 Apple Swift version 6.2 (swiftlang-6.2.0.19.9)") == "6.2")
        #expect(GatePlatform.swiftVersion(in: "no version here") == nil)
        #expect(GatePlatform(os: "linux", arch: "arm64", swiftVersion: "6.3").baselinePath == "Results/baselines/linux-arm64-6.3.csv")
    }

    @Test("the counts as github-action-benchmark's customSmallerIsBetter JSON: one entry per case and measured metric")
    func benchmarkActionJSON() throws {
        let records = [
            GateRecord(benchmark: "dispatch", strategy: "a", message: "m", width: 1, responders: 1,
                       values: ["mallocs_per_op": 0, "retains_per_op": 1, "releases_per_op": 1, "instructions_per_op": 119.95]),
            GateRecord(benchmark: "dispatch", strategy: "b", message: "m", width: 16, responders: 1,
                       values: ["mallocs_per_op": 2, "retains_per_op": 0, "releases_per_op": 0]),
        ]
        let data = Data(GateRecord.benchmarkActionJSON(records).utf8)
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == [
            "dispatch/a/m/1/1 mallocs_per_op", "dispatch/a/m/1/1 retains_per_op", "dispatch/a/m/1/1 releases_per_op",
            "dispatch/a/m/1/1 instructions_per_op", "dispatch/b/m/16/1 mallocs_per_op", "dispatch/b/m/16/1 retains_per_op",
            "dispatch/b/m/16/1 releases_per_op",
        ])
        #expect(entries[3]["value"] as? Double == 119.95)
        #expect(entries[3]["unit"] as? String == "instructions/message")
        #expect(entries.allSatisfy { Set($0.keys) == ["name", "unit", "value"] })
    }
}

/// The package's root directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
