import FanoutMicrobench
import Foundation
import Testing

/// What `bench` tells a person while it runs: on a log, at most one line per tenth of each phase and the summary in
/// one piece; on a terminal, one live line per phase with an estimate of the time left. Skipped where
/// `FANOUT_SKIP_RUN_TESTS` is set (the sanitizer builds of `.ci/run`), as `RunSurvivalTests` is.
@Suite("Progress of a run", .enabled(if: ProcessInfo.processInfo.environment["FANOUT_SKIP_RUN_TESTS"] == nil))
struct ProgressTests {
    /// A small run with both phases (the pass over the cases and the fresh processes), quick samples.
    static let run = [
        "--filter", "^dispatch/(existentialArray|weakArray)/didScroll/", "--processes", "12", "--samples", "2",
        "--rounds", "2", "--sample-time", "0.2",
    ]

    /// Runs `bench` with standard output and standard error into one file, as `bench > log 2>&1` does.
    static func log(_ arguments: [String], terminal: Bool) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let bench = try benchExecutable()
        let command = ([bench] + arguments + ["--output", output.path + ".csv"]).map { "'\($0)'" }.joined(separator: " ")
        defer { for suffix in [".csv", ".charts.json"] { try? FileManager.default.removeItem(atPath: output.path + suffix) } }
        // `script` gives the run a terminal; otherwise a shell sends both streams to the same file.
        let result = terminal
            ? Subprocess.run("/usr/bin/script", ["-qec", command, output.path])
            : Subprocess.run("/bin/sh", ["-c", "\(command) >'\(output.path)' 2>&1"])
        #expect(result.status == 0, "\(result.standardError)")
        return try String(contentsOf: output, encoding: .utf8)
    }

    @Test("on a log: at most ten lines a phase, and the summary unbroken by notes")
    func onALog() throws {
        let lines = try Self.log(Self.run, terminal: false).split(separator: "\n").map(String.init)
        let progress = lines.filter { $0.contains("% , about") || $0.hasSuffix(" %)") || $0.contains(" left)") }
        for phase in ["measuring ", "fresh processes:"] {
            let count = progress.filter { $0.hasPrefix(phase) }.count
            #expect(count >= 1 && count <= 10, "\(phase): \(count) lines\n\(lines.joined(separator: "\n"))")
        }
        #expect(!lines.contains { $0.hasPrefix("  process ") }, "a line per process")
        let first = try #require(lines.firstIndex { $0.hasPrefix("Fanout bench: ") })
        let last = try #require(lines.firstIndex { $0.hasPrefix("CSV: ") })
        let summary = lines[first...last]
        #expect(!summary.contains { $0.hasPrefix("wrote ") || $0.contains(" left)") || $0.hasPrefix("fresh processes") },
                "a note inside the summary:\n\(summary.joined(separator: "\n"))")
        // The note comes after the summary (what a sanitizer prints at exit may follow it).
        #expect(lines[(last + 1)...].contains { $0.hasPrefix("wrote ") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("on a terminal: one live line a phase, with an estimate of the time left")
    func onATerminal() throws {
        let text = try Self.log(Self.run, terminal: true)
        let updates = text.components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(updates.contains { $0.hasPrefix("fresh processes: ") && $0.contains(" left)") }, "\(text)")
        #expect(updates.contains { $0.hasPrefix("measuring ") && $0.contains(" left)") }, "\(text)")
        // The live updates overwrite one line: no update ends its line.
        #expect(!updates.contains { $0.contains(" left)") && $0.contains("\n") }, "\(text)")
    }

    @Test("a duration reads as a person says it")
    func durations() {
        #expect(PhaseProgress.duration(45) == "45 s")
        #expect(PhaseProgress.duration(130) == "2 min 10 s")
        #expect(PhaseProgress.duration(3_900) == "1 h 5 min")
    }
}
