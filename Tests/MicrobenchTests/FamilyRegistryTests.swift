import FanoutMicrobench
import Foundation
import Testing

/// Adding a family is one file and one line in the registry (Documentation/Benchmarking.md, "Adding a benchmark
/// family"): the toy family (`Benchmarks/bench/ToyFamily.swift`, registered where `FANOUT_TOY_FAMILY` is set) is
/// found by `bench list`, written to a run's CSV and chart declarations, and counted by the gate, which ask the
/// registry and name no family. A run of bench: skipped where `FANOUT_SKIP_RUN_TESTS` is set, as RunSurvivalTests.
@Suite(
    "A family is one file and one line in the registry",
    .enabled(if: ProcessInfo.processInfo.environment["FANOUT_SKIP_RUN_TESTS"] == nil))
struct FamilyRegistryTests {
    static let toy = ["FANOUT_TOY_FAMILY": "1", "CI": "false"]
    static let toyCase = "toy/toyCounter/didScroll/1/1"

    @Test("list finds the registered toy family, and only when it is registered")
    func list() throws {
        let registered = try runBench(["list", "--filter", "^toy/"], environment: Self.toy)
        #expect(registered.status == 0, "\(registered.standardError)")
        #expect(registered.standardOutput.split(separator: "\n").map(String.init) == [Self.toyCase])
        let unregistered = try runBench(["list", "--filter", "^toy/"], environment: ["CI": "false"])
        #expect(unregistered.status == 2)
        #expect(unregistered.standardError.contains("no case matches the selection"))
    }

    @Test("a run writes the toy family's row and its chart declaration")
    func run() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let output = folder.output
        let result = try runBench(
            ["--filter", "^toy/", "--processes", "1", "--samples", "1", "--rounds", "1", "--output", output,
             "--no-progress"],
            environment: Self.toy)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try CSV.parse(try String(contentsOfFile: output, encoding: .utf8), file: output)
        #expect(rows.map(\.name) == [Self.toyCase])
        #expect((rows.first?.nanosecondsPerOperationMedian ?? 0) > 0)
        let charts = try String(contentsOfFile: ChartSpec.manifestPath(forCSV: output), encoding: .utf8)
        #expect(charts.contains("\"toy\""), "\(charts)")
    }

    @Test("the gate counts the toy family's gate case: new against a baseline that lacks it")
    func check() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let baseline = folder.path + "/baseline.csv"
        try "benchmark,strategy,message,width,responders,mallocs_per_op,retains_per_op,releases_per_op,instructions_per_op\n"
            .write(toFile: baseline, atomically: true, encoding: .utf8)
        let result = try runBench(
            ["check", "--filter", "^toy/", "--baseline", baseline, "--records", folder.path + "/records.csv",
             "--summary", folder.path + "/summary.md", "--no-progress"],
            environment: Self.toy)
        #expect(result.standardOutput.contains("NEW \(Self.toyCase): not in the baseline"), "\(result.standardOutput)")
        let records = try String(contentsOfFile: folder.path + "/records.csv", encoding: .utf8)
        #expect(records.contains("toy,toyCounter,didScroll,1,1,"), "\(records)")
    }

    @Test("Results/headline.json, which the scripts read instead of naming a family, is what the registry declares")
    func headline() throws {
        let result = try runBench(["headline"], environment: ["CI": "false"])
        #expect(result.status == 0, "\(result.standardError)")
        let committed = try String(contentsOfFile: packageRoot + "/Results/headline.json", encoding: .utf8)
        #expect(result.standardOutput == committed, "regenerate it: swift run -c release bench headline > Results/headline.json")
    }
}
