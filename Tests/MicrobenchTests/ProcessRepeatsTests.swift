import Foundation
import FanoutMicrobench
import Testing

/// A published case measured in several processes (`ProcessFigure`, `ProcessRepeats`): a process that ran the case
/// slow is set aside and does not set the figure; the figure is the trimmed mean over processes, not one process's
/// value;
/// and the runner that `bench` calls spawns the processes and merges what they print, with a fake executable and
/// with `bench` itself.
@Suite("Published cases measured in several processes")
final class ProcessRepeatsTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("repeats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test("a process slow on a case is flagged and kept out of its figure")
    func slowedProcessSetAside() {
        let figure = ProcessFigure([10, 10.1, 9.9, 16, 10.05])
        #expect(figure.slowed == [3])
        #expect(abs(figure.figure - 10.0125) < 1e-9)
        #expect(abs(figure.spread - 0.2 / 10.0125) < 1e-9)
    }

    @Test("the figure is the mean over the processes, not the run's own process's value")
    func meanOverProcesses() {
        // The run's own process slowed: set aside.
        let slowFirst = ProcessFigure([16, 10, 10.1, 9.9, 10.05])
        #expect(slowFirst.slowed == [0])
        #expect(abs(slowFirst.figure - 10.0125) < 1e-9)
        // The run's own process faster than the others, within the rule: the mean of all five.
        let fastFirst = ProcessFigure([10, 12, 12.2, 11.9, 12.1])
        #expect(fastFirst.slowed.isEmpty)
        #expect(abs(fastFirst.figure - 11.64) < 1e-9)
    }

    @Test("processes in two groups: one process changing sides moves the figure by its share, not the gap")
    func twoGroups() {
        // A width-1 case whose processes fall 3.35 or 3.82 ns: a median would jump by the whole 0.47.
        let before = ProcessFigure([3.35, 3.35, 3.82, 3.82, 3.82])
        let after = ProcessFigure([3.35, 3.35, 3.35, 3.82, 3.82])
        #expect(abs((before.figure - after.figure) - 0.47 / 5) < 1e-9)
    }

    @Test("of ten processes or more, the fastest and the slowest tenth are not averaged")
    func trimmedTenth() {
        // 12.5 is under the slowed rule's 1.3x; it and 8 are left out, the spread is over the eight averaged.
        let figure = ProcessFigure([10, 10, 8, 10, 10, 10, 12.5, 10, 10, 10])
        #expect(figure.slowed.isEmpty)
        #expect(figure.figure == 10)
        #expect(figure.spread == 0)
    }

    @Test("a ratio alone, two processes, or a slower majority set nothing aside", arguments: [
        ([1.0, 1.0, 1.4], 1),  // 1.4x, but 0.4 ns over: noise on a case of a few cycles
        ([10.0, 16.0], 1),  // two processes cannot say which one is off
        ([10.0, 20.0, 20.0, 20.0, 10.0], 1),  // the case is slow in most processes: that is its figure
        ([64.0, 64.0, 90.0], 64),  // 1.4x, but 26 ns over 64 deliveries is under 0.5 ns per delivery
        ([1.0, 1.0, 10.0, 10.0], 1),  // half the processes: not a minority
    ])
    func nothingSetAside(values: [Double], deliveries: Int) {
        let figure = ProcessFigure(values, deliveries: deliveries)
        #expect(figure.slowed.isEmpty)
        #expect(abs(figure.figure - values.reduce(0, +) / Double(values.count)) < 1e-9)
    }

    /// A results CSV of `cases` (name, ns per operation), as a process prints it.
    func csv(_ cases: [(String, Double)]) -> String {
        let metadata = RunMetadata(
            swiftVersion: "6.3", commit: "abc", host: "h", cpu: "c", timestamp: "t", build: "release")
        return CSV.render(cases.map { name, ns in
            let parts = name.split(separator: "/").map(String.init)
            return ResultRow(
                benchmark: parts[0], strategy: parts[1], message: parts[2], width: Int(parts[3])!,
                responders: Int(parts[4])!, samples: 10, iterations: 100, nanosecondsPerOperationMedian: ns,
                nanosecondsPerOperationP10: ns * 0.9, nanosecondsPerOperationP90: ns * 1.1,
                nanosecondsPerOperationMinimum: ns * 0.8, nanosecondsPerDelivery: ns / Double(parts[3])!,
                deliveriesPerSecond: 0, counts: nil, relativeSpread: 0.01, metadata: metadata)
        })
    }

    @Test("the runner spawns each process with its seed and merges what it prints; a failed process is reported")
    func runnerMergesProcesses() throws {
        let published = "dispatch/existentialArray/didScroll/1/1"
        let other = "dispatch/existentialArray/didScroll/1/2"
        // What the fake processes print, by seed: seed 5 fails (the last: with one failure in five, more than a tenth,
        // no process would start after it).
        try csv([(published, 10.3), (other, 99)]).write(toFile: directory + "/seed-1.csv", atomically: true, encoding: .utf8)
        try csv([(published, 10.2)]).write(toFile: directory + "/seed-2.csv", atomically: true, encoding: .utf8)
        try csv([(published, 16)]).write(toFile: directory + "/seed-3.csv", atomically: true, encoding: .utf8)
        try csv([(published, 9.8)]).write(toFile: directory + "/seed-4.csv", atomically: true, encoding: .utf8)
        let script = directory + "/fake-bench"
        try """
            #!/bin/sh
            # The arguments end with --seed N; seed 5 fails.
            for last; do :; done
            [ "$last" = 5 ] && { echo "error: boom" >&2; exit 1; }
            echo "$@" >> "\(directory)/calls"
            echo "${#\(ProcessRepeats.placementVariable)}" >> "\(directory)/pads"
            cat "\(directory)/seed-$last.csv"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        // The run's own measurement, which does not count: were it counted, the figure would not be 10.
        let own = try CSV.parse(csv([(published, 30), (other, 5)]), file: "own")
        var seeds: [Int] = []
        // Run by the shell, not executed itself: a file written and then executed while other tests' threads fork
        // can fail with "text file busy".
        let outcome = ProcessRepeats.measure(
            rows: own, repeated: [published], processes: 5, executable: "/bin/sh",
            arguments: [script, "repeat", "--quick"], deadline: 30, started: { seeds.append($0) })
        #expect(seeds == [1, 2, 3, 4, 5])
        #expect(outcome.failures.count == 1, "\(outcome.failures)")
        let calls = try String(contentsOfFile: directory + "/calls", encoding: .utf8).split(separator: "\n")
        #expect(
            calls == ["repeat --quick --seed 1", "repeat --quick --seed 2", "repeat --quick --seed 3", "repeat --quick --seed 4"])
        // Each process's stack moved by its seed's offset, through its environment.
        let pads = try String(contentsOfFile: directory + "/pads", encoding: .utf8).split(separator: "\n").map { Int($0) }
        #expect(pads == [1, 2, 3, 4].map { ProcessRepeats.placement(seed: $0).stack })
        let failure = try #require(outcome.failures.first)
        #expect(failure.hasPrefix("process 5 of 5 (seed 5) exited with status 1 after "), "\(failure)")
        #expect(failure.hasSuffix(": error: boom"), "\(failure)")
        let merged = try #require(outcome.rows.first { $0.name == published })
        // Seed 3's 16 is set aside; the figure is the mean of 10.3, 10.2 and 9.8: not the first process's 10.3,
        // nor the run's own 30.
        #expect(merged.processes == 4)
        #expect(merged.slowedProcesses == 1)
        #expect(abs(merged.nanosecondsPerOperationMedian - 10.1) < 1e-9)
        #expect(abs(merged.nanosecondsPerDelivery - 10.1) < 1e-9)
        // From the process nearest the figure (seed 2), scaled by the figure over its median.
        #expect(abs(merged.nanosecondsPerOperationP10 - 10.2 * 0.9 * 10.1 / 10.2) < 1e-9)
        // A case not published keeps its own row, whatever a process printed for it.
        #expect(outcome.rows.first { $0.name == other } == own[1])
    }

    @Test("each process gets its own data placement: stack and heap offsets below a page, the same for a seed")
    func placementsDiffer() {
        let placements = (1...8).map { ProcessRepeats.placement(seed: $0) }
        #expect(Set(placements.map(\.stack)).count >= 6)
        #expect(Set(placements.map(\.heap)).count >= 6)
        #expect(placements.allSatisfy { $0.stack % 16 == 0 && $0.stack < 4096 && $0.heap % 16 == 0 && $0.heap < 4096 })
        #expect(ProcessRepeats.placement(seed: 3) == ProcessRepeats.placement(seed: 3))
    }

    #if os(Linux)
        @Test("the fresh processes run with address randomization off; this process's own setting is restored")
        func processesRunWithoutAddressRandomization() throws {
            let script = directory + "/fake-bench"
            try """
                #!/bin/sh
                cat /proc/self/personality >> "\(directory)/personality"
                echo "\(ResultRow.columns.joined(separator: ","))"
                """.write(toFile: script, atomically: true, encoding: .utf8)
            let before = try String(contentsOfFile: "/proc/self/personality", encoding: .utf8)
            let outcome = ProcessRepeats.measure(
                rows: [], repeated: [], processes: 2, executable: "/bin/sh", arguments: [script], deadline: 30)
            let personalities = try String(contentsOfFile: directory + "/personality", encoding: .utf8)
                .split(separator: "\n").map { UInt($0, radix: 16) }
            #expect(personalities.count == 2)
            // ADDR_NO_RANDOMIZE: set in each process exactly when the runner says the placements are fixed, which they
            // are wherever `setarch -R` works (a container's seccomp filter may refuse both).
            for personality in personalities {
                #expect(personality.map { $0 & 0x0040000 != 0 } == outcome.placementsFixed)
            }
            #expect(outcome.placementsFixed == Self.setarchCanTurnRandomizationOff())
            #expect(try String(contentsOfFile: "/proc/self/personality", encoding: .utf8) == before)
        }

        /// Whether `setarch -R` starts a process with address randomization off here.
        static func setarchCanTurnRandomizationOff() -> Bool {
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "setarch \"$(uname -m)\" -R cat /proc/self/personality"]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return process.terminationStatus == 0 && UInt(text, radix: 16).map { $0 & 0x0040000 != 0 } == true
        }
    #endif

    @Test("the process columns survive the CSV; a CSV written before them still reads")
    func processColumnsInTheCSV() throws {
        let name = "dispatch/closureTable/didScroll/4/4"
        let rows = try CSV.parse(csv([(name, 8)]), file: "a")
        let merged = ProcessRepeats.merge(rows, repeats: [name: try CSV.parse(csv([(name, 8.4), (name, 8.2)]), file: "b")])
        // The figure is the fresh processes' (8.3), not the run's own 8.
        #expect(abs((merged.rows.first?.nanosecondsPerOperationMedian ?? 0) - 8.3) < 1e-9)
        let row = try #require(merged.rows.first)
        let reread = try #require(try CSV.parse(CSV.render([row]), file: "c").first)
        #expect(CSV.render([reread]) == CSV.render([row]))
        #expect(reread.processes == 2 && reread.slowedProcesses == 0 && reread.processSpread != nil)
        #expect(row.processes == 2 && row.slowedProcesses == 0)
        let text = CSV.render(rows)
        let legacy = text.split(separator: "\n").map { line in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false)
            fields.removeSubrange(20..<27)  // the process and interval columns
            return fields.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        #expect(!legacy.contains("processes"))
        #expect(try CSV.parse(legacy, file: "legacy") == rows)
        // A legacy row with a field missing is refused, naming its line.
        let short = legacy.split(separator: "\n").map(String.init)
        let broken = short[0] + "\n" + short[1].split(separator: ",", omittingEmptySubsequences: false).dropLast()
            .joined(separator: ",") + "\n"
        let error = #expect(throws: CSV.ParseError.self) { try CSV.parse(broken, file: "legacy") }
        #expect(error?.description == "legacy:2: expected 26 fields, got 25")
    }

    @Test("bench measures its dispatch cases in fresh processes, the published ones in all, and writes their figures")
    func benchRepeatsDispatchCases() throws {
        let output = directory + "/run.csv"
        // Not the C floor: its targets are never freed (a case's state lives as long as the process), which
        // LeakSanitizer, in .ci/run's AddressSanitizer step, reports as an exit status.
        let result = try runBench([
            "--quick", "--processes", "20", "--filter", "^dispatch/(existentialArray|floor)/didScroll/(1|16)/",
            "--output", output, "--no-progress",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("each above in 20 fresh processes"))
        let rows = try CSV.parse(try String(contentsOfFile: output, encoding: .utf8), file: output)
        let published = rows.filter { $0.width == $0.responders }
        #expect(published.count == 4)
        #expect(published.allSatisfy { $0.processes == 20 && $0.processSpread != nil })
        // The two sparse cases, not published: each in every second process, a different half for each.
        let sparse = rows.filter { $0.width != $0.responders }
        #expect(sparse.count == 2 && sparse.allSatisfy { $0.processes == 10 && $0.processSpread != nil })
    }
}
