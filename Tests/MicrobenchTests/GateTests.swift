import Microbench
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
        #expect(comparison.verdicts.allSatisfy { $0.outcome == .pass })
    }

    @Test("one more allocation per message is a regression that names the case")
    func extraAllocationFails() {
        let comparison = GateComparison(baseline: [record()], current: [record(mallocs: 1)], thresholds: thresholds)
        #expect(!comparison.passes)
        #expect(comparison.regressions.map(\.metric) == ["mallocs_per_op"])
        #expect(comparison.table().contains("dispatch/closureTable/didScroll/16/16  mallocs_per_op"))
        #expect(comparison.markdown(notes: []).contains("`dispatch/closureTable/didScroll/16/16` | mallocs_per_op"))
    }

    @Test("instructions may grow by the relative tolerance, not more")
    func instructionTolerance() {
        let within = GateComparison(baseline: [record()], current: [record(instructions: 1020)], thresholds: thresholds)
        #expect(within.passes)
        let beyond = GateComparison(baseline: [record()], current: [record(instructions: 1050)], thresholds: thresholds)
        #expect(beyond.regressions.map(\.metric) == ["instructions_per_op"])
    }

    @Test("the most specific threshold wins")
    func overrides() {
        let baseline = [record("selectorDictionary")]
        let current = [record("selectorDictionary", instructions: 1050)]
        #expect(GateComparison(baseline: baseline, current: current, thresholds: thresholds).passes)
    }

    @Test("improvements pass and are reported; missing cases fail")
    func improvementsAndMissing() {
        let improved = GateComparison(baseline: [record(mallocs: 1)], current: [record()], thresholds: thresholds)
        #expect(improved.passes)
        #expect(improved.improvements.map(\.metric) == ["mallocs_per_op"])
        #expect(improved.markdown(notes: []).contains("bench baseline"))
        let missing = GateComparison(baseline: [record(), record("existentialArray")], current: [record()], thresholds: thresholds)
        #expect(!missing.passes)
        #expect(missing.missing == ["dispatch/existentialArray/didScroll/16/16"])
    }

    @Test("a metric missing on one side is skipped, not passed silently as a number")
    func skipped() {
        let comparison = GateComparison(baseline: [record(instructions: nil)], current: [record()], thresholds: thresholds)
        #expect(comparison.passes)
        #expect(comparison.verdicts.first { $0.metric == "instructions_per_op" }?.outcome == .skipped)
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

    @Test("bench check rejects a missing or malformed baseline with status 2 and names the file")
    func checkRejectsBadFiles() throws {
        let missing = try runBench(["check", "--baseline", "/nonexistent/baseline.csv", "--no-progress"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent/baseline.csv: missing"))
        let path = FileManagerTemporaryFile.write("benchmark,strategy\n")
        let malformed = try runBench(["check", "--baseline", path, "--no-progress"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("\(path):1: header must be"))
    }
}
