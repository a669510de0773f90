import Foundation
import FanoutMicrobench
import Testing

/// `scripts/merge` and `scripts/compare` on copies of the committed run
/// and gate baseline: a second host made by rewriting a copy's metadata merges
/// into one CSV, and `scripts/compare` flags exactly the case changed by 5 % in
/// instructions or by 30 % in its time ratio to `existentialArray` (in a
/// copy given 1 % of spread, so that 30 % is beyond its noise), and nothing
/// when the runs are the same. (That five real reruns of one commit
/// stay quiet is timing, so it is measured, not tested:
/// `scripts/compare-reruns`, Documentation/AcrossMachines.md.)
@Suite("Merging and comparing runs: scripts/merge and scripts/compare")
final class RunComparisonTests {
    static let run = packageRoot + "/Results/results.csv"
    static let baseline = packageRoot + "/" + BaselineClaimsTests.documented.baselinePath

    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    // Each test runs on an instance of its own: its folder goes with it.
    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func script(_ name: String, _ arguments: [String]) throws -> SubprocessResult {
        _ = try #require(Subprocess.find("python3"), "python3 is not installed")
        return Subprocess.run(packageRoot + "/scripts/" + name, arguments)
    }

    /// The CSV at `path` with `change` applied to each row (a column → field
    /// dictionary), written as `name` in the test's folder.
    func rewrite(_ path: String, as name: String, _ change: (inout [String: String]) -> Void) throws -> String {
        let records = try CSV.records(in: try String(contentsOfFile: path, encoding: .utf8), file: path)
        let header = try #require(records.first?.fields)
        var lines = [header.joined(separator: ",")]
        for record in records.dropFirst() {
            var row = Dictionary(uniqueKeysWithValues: zip(header, record.fields))
            change(&row)
            lines.append(header.map { Self.quoted(row[$0] ?? "") }.joined(separator: ","))
        }
        let output = directory + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: output, atomically: true, encoding: .utf8)
        return output
    }

    /// A row's case name, as `bench --filter` and the scripts write it.
    static func caseName(_ row: [String: String]) -> String {
        ["benchmark", "strategy", "message", "width", "responders"].map { row[$0] ?? "" }.joined(separator: "/")
    }

    static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    /// scripts/compare's last line: its counts of slower, faster and same cases.
    func verdicts(_ result: SubprocessResult) throws -> (slower: Int, faster: Int, same: Int) {
        #expect(result.status == 0, "\(result.standardError)")
        let last = try #require(result.standardOutput.split(separator: "\n").last.map(String.init))
        let match = try #require(last.firstMatch(of: /(\d+) slower, (\d+) faster, (\d+) within their noise/), "\(last)")
        return (Int(match.1)!, Int(match.2)!, Int(match.3)!)
    }

    @Test("a second host merges into one CSV that keeps each row's host, CPU, toolchain and commit")
    func mergeKeepsEachRun() throws {
        let other = try rewrite(Self.run, as: "other.csv") { row in
            row["host"] = "second-host"
            row["cpu"] = "Other CPU (8 cores)"
            row["commit"] = "0000000"
            row["timestamp"] = "2026-01-01T00:00:00Z"
        }
        let merged = directory + "/merged.csv"
        let result = try script("merge", [Self.run, other, "--output", merged])
        #expect(result.status == 0, "\(result.standardError)")
        let records = try CSV.records(in: try String(contentsOfFile: merged, encoding: .utf8), file: merged)
        let original = try CSV.records(in: try String(contentsOfFile: Self.run, encoding: .utf8), file: Self.run)
        let header = try #require(records.first?.fields)
        let host = try #require(header.firstIndex(of: "host")), commit = try #require(header.firstIndex(of: "commit"))
        #expect(records.count - 1 == 2 * (original.count - 1))
        #expect(Set(records.dropFirst().map { $0.fields[host] }).count == 2)
        #expect(records.dropFirst().filter { $0.fields[commit] == "0000000" }.count == original.count - 1)
        // scripts/compare takes single runs only: the merged file is refused, naming it.
        let refused = try script("compare", [merged, Self.run])
        #expect(refused.status == 2 && refused.standardError.contains("more than one run"))
    }

    @Test("the same run compared with itself: every case within its noise, in time, in ratios and in counts")
    func sameRunIsQuiet() throws {
        let time = try verdicts(try script("compare", [Self.run, Self.run]))
        #expect(time.slower == 0 && time.faster == 0 && time.same > 1000)
        let ratios = try verdicts(try script("compare", [Self.run, Self.run, "--reference", "existentialArray"]))
        #expect(ratios.slower == 0 && ratios.faster == 0 && ratios.same > 1000)
        let counts = try verdicts(try script("compare", [Self.baseline, Self.baseline]))
        #expect(counts.slower == 0 && counts.faster == 0 && counts.same > 250)
    }

    @Test("agreement: a run agrees with itself on every published cell; a run twice as slow with one cell 8 % off agrees on the rest")
    func agreementOfThePublishedCells() throws {
        let same = try script("compare", [Self.run, Self.run, "--agreement"])
        #expect(same.status == 0, "\(same.standardError)")
        #expect(same.standardOutput.contains("100 % agree within ±5 %, 100 % within ±10 %; 0 beyond ±5 %"),
                "\(same.standardOutput)")
        let changed = "dispatch/existentialArray/didScroll/1/1"
        // Every time doubled, the changed cell's by 2 × 1.08: its ratio to the C floor is 8 % off, the others' not.
        let other = try rewrite(Self.run, as: "slower.csv") { row in
            let factor = Self.caseName(row) == changed ? 2 * 1.08 : 2
            for column in ["ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90", "ns_per_op_min", "ns_per_delivery"] {
                if let value = row[column].flatMap(Double.init) { row[column] = String(value * factor) }
            }
        }
        let result = try script("compare", [Self.run, other, "--agreement"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("within ±5 %") && $0.hasSuffix("; 1 beyond ±5 %:") }, "\(lines)")
        #expect(lines.contains { $0.contains("1.080  \(changed):") && !$0.contains("beyond ±10 %") }, "\(lines)")
    }

    @Test("agreement: a strategy 10 % slower in every case is found in each of its published cells, and only there")
    func tenPercentRegressionOfOneStrategy() throws {
        let slower = try rewrite(Self.run, as: "regressed.csv") { row in
            guard row["strategy"] == "closureTable" else { return }
            for column in ["ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90", "ns_per_op_min", "ns_per_delivery"] {
                if let value = row[column].flatMap(Double.init) { row[column] = String(value * 1.10) }
            }
        }
        let result = try script("compare", [Self.run, slower, "--agreement"])
        #expect(result.status == 0, "\(result.standardError)")
        let listed = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  1.100  ") }
        // closureTable's published cells: five messages at widths 1, 4 and 64.
        #expect(listed.count == 15, "\(result.standardOutput)")
        #expect(listed.allSatisfy { $0.contains("dispatch/closureTable/") })
        #expect(result.standardOutput.contains("; 15 beyond ±5 %:"), "\(result.standardOutput)")
    }

    @Test("a case with 5 % more instructions is flagged, and only that case")
    func instructionChangeIsFlagged() throws {
        let changed = "dispatch/closureTable/didScroll/16/16"
        let other = try rewrite(Self.baseline, as: "baseline.csv") { row in
            guard Self.caseName(row) == changed, let instructions = row["instructions_per_op"].flatMap(Double.init)
            else { return }
            row["instructions_per_op"] = String(instructions * 1.05)
        }
        let result = try script("compare", [Self.baseline, other])
        let counts = try verdicts(result)
        #expect(counts.slower == 1 && counts.faster == 0)
        #expect(result.standardOutput.contains("slower   \(changed)"), "\(result.standardOutput)")
    }

    @Test("on a machine twice as slow, the case whose time ratio to existentialArray grows 30 % is flagged, only it")
    func ratioChangeIsFlagged() throws {
        // The committed run with 1 % of spread in every case, so that a 30 % change is beyond every band whatever
        // the spell the committed run came in (its own bands can be wider than 30 %: a change that size is then
        // rightly within its noise).
        let quiet = try rewrite(Self.run, as: "quiet.csv") { row in
            guard let median = row["ns_per_op_median"].flatMap(Double.init) else { return }
            row["ns_per_op_p10"] = String(median * 0.99)
            row["ns_per_op_p90"] = String(median * 1.01)
            row["spread_mad_over_median"] = "0.005"
        }
        let changed = "dispatch/closureTable/didScroll/64/64"
        // Every time doubled (a slower machine, or a slow spell of this one), the changed case's by 2 × 1.3.
        let other = try rewrite(quiet, as: "slower.csv") { row in
            let factor = Self.caseName(row) == changed ? 2 * 1.3 : 2
            for column in ["ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90", "ns_per_op_min", "ns_per_delivery"] {
                if let value = row[column].flatMap(Double.init) { row[column] = String(value * factor) }
            }
        }
        let result = try script("compare", [quiet, other, "--reference", "existentialArray"])
        let counts = try verdicts(result)
        #expect(counts.slower == 1 && counts.faster == 0)
        #expect(result.standardOutput.contains("slower   \(changed)"), "\(result.standardOutput)")
        // In absolute time, every case is slower: the ratio is what tells the one case apart.
        let absolute = try verdicts(try script("compare", [quiet, other]))
        #expect(absolute.slower > 1000)
    }
}
