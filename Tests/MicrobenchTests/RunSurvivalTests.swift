import FanoutMicrobench
import Foundation
import Testing

/// A run survives what stops runs: a signal in either phase (Ctrl-C, a CI timeout), a fresh process that hangs,
/// crashes, exits 1 or prints no CSV, a directory or a disk that refuses the output, and a malformed results CSV given
/// to the commands and scripts that read one. Each drives the real `bench` executable (faults planted through
/// `FANOUT_BENCH_FAULT`) and checks the exit status, the message, the checkpoint and what a resumed run writes.
///
/// Skipped where `FANOUT_SKIP_RUN_TESTS` is set: `.ci/run` sets it for the sanitizer builds, which run the library's
/// tests again, not the suite's own runs.
@Suite("A run that survives", .enabled(if: ProcessInfo.processInfo.environment["FANOUT_SKIP_RUN_TESTS"] == nil))
struct RunSurvivalTests {
    /// A small run with both phases: a family of the pass (setup) and the dispatch cases fresh processes repeat.
    static func arguments(output: String, processes: Int = 12) -> [String] {
        [
            "--filter", "^(dispatch/(existentialArray|weakArray)/didScroll/|setup/existentialArray/)", "--processes",
            String(processes), "--samples", "2", "--rounds", "2", "--sample-time", "0.2", "--output", output,
        ]
    }

    /// Starts `bench` with `arguments` and `fault` planted, its standard error going to `log`.
    static func start(_ arguments: [String], fault: String?, log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try benchExecutable())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["FANOUT_BENCH_FAULT"] = fault
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `condition` holds, for at most `seconds`.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    /// The processes whose command line names `marker` (the run's output folder): none may outlive the run.
    static func processes(naming marker: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(marker)
        }
    }

    /// Interrupts a run with `signal` where `fault` holds it, once its standard error shows `reached`; checks the
    /// exit, the message, the output left as it was and no process left behind; returns the checkpoint.
    static func interrupt(
        with signal: Int32, fault: String, in folder: RunFolder, reached: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunCheckpoint {
        try "a complete run's results".write(toFile: folder.output, atomically: true, encoding: .utf8)
        let log = folder.path + "/stderr.txt"
        let process = try start(Self.arguments(output: folder.output) + ["--process-deadline", "120"], fault: fault, log: log)
        let there = wait(seconds: 60) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(reached) ?? false }
        #expect(there, "the run did not reach '\(reached)'", sourceLocation: sourceLocation)
        usleep(300_000)
        let sent = Date()
        kill(process.processIdentifier, signal)
        let exited = wait(seconds: 10) { !process.isRunning }
        #expect(exited && Date().timeIntervalSince(sent) < 2, "exit within 2 s", sourceLocation: sourceLocation)
        process.waitUntilExit()
        let message = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(process.terminationReason == .exit, sourceLocation: sourceLocation)
        #expect(process.terminationStatus == 128 + signal, "\(message)", sourceLocation: sourceLocation)
        #expect(
            message.contains("interrupted by \(Subprocess.signalName(signal))")
                && message.contains("--resume \(folder.checkpoint)"), "\(message)", sourceLocation: sourceLocation)
        #expect(
            (try? String(contentsOfFile: folder.output, encoding: .utf8)) == "a complete run's results",
            "the output is left as it was", sourceLocation: sourceLocation)
        usleep(200_000)
        #expect(processes(naming: folder.path).isEmpty, "a process outlived the run", sourceLocation: sourceLocation)
        return try folder.readCheckpoint()
    }

    /// Resumes the run of `folder` and checks that it writes the complete results and removes its checkpoint.
    static func resume(_ folder: RunFolder, processes: Int = 12, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [ResultRow]
    {
        let result = try runBench(["--resume", folder.checkpoint, "--no-progress"])
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: folder.checkpoint), sourceLocation: sourceLocation)
        let rows = try CSV.parse(try String(contentsOfFile: folder.output, encoding: .utf8), file: folder.output)
        let published = rows.filter { $0.benchmark == "dispatch" && $0.width == $0.responders && $0.width != 2 }
        #expect(!published.isEmpty && published.allSatisfy { $0.processes == processes }, sourceLocation: sourceLocation)
        #expect(rows.contains { $0.benchmark == "setup" }, sourceLocation: sourceLocation)
        return rows
    }

    @Test("SIGINT in the fresh processes: exit 130, the measured processes kept, and --resume completes the run")
    func interruptedAmongProcesses() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        // Process 3 hangs (its deadline far away): the run waits there, processes 1 and 2 kept (the checkpoint is
        // written whole by the signal's handler).
        let kept = try Self.interrupt(with: SIGINT, fault: "hang:3", in: folder, reached: "fresh processes: 2 of 12")
        #expect(kept.processes.keys.sorted() == ["1", "2"] && kept.failures.isEmpty, "\(kept.failures)")
        #expect(try kept.passRows(file: folder.checkpoint).count == 66)
        _ = try Self.resume(folder)
    }

    @Test("SIGTERM in the pass over the cases: exit 143, the families measured kept, and --resume completes the run")
    func interruptedInThePass() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let kept = try Self.interrupt(
            with: SIGTERM, fault: "pause:pass", in: folder, reached: "planted fault: paused after the first family")
        #expect(kept.processes.isEmpty)
        let rows = try kept.passRows(file: folder.checkpoint)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.benchmark == "setup" })
        _ = try Self.resume(folder)
    }

    @Test("a hung process is killed at its deadline, named, and the run finishes with the others")
    func hungProcess() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let result = try runBench(
            Self.arguments(output: folder.output) + ["--process-deadline", "2", "--no-progress"],
            environment: ["FANOUT_BENCH_FAULT": "hang:4"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("process 4 of 12 (seed 4) ran past its deadline and was killed after 2"))
        #expect(result.standardError.contains(", measuring dispatch/"), "the case it was on")
        let rows = try CSV.parse(try String(contentsOfFile: folder.output, encoding: .utf8), file: folder.output)
        let published = rows.filter { $0.benchmark == "dispatch" && $0.width == $0.responders && $0.width != 2 }
        #expect(!published.isEmpty && published.allSatisfy { $0.processes == 11 }, "the figures say 11 processes")
        #expect(!FileManager.default.fileExists(atPath: folder.checkpoint))
    }

    @Test("a process that crashes, exits 1 or prints no CSV is named with its signal or status, seed and case")
    func failingProcesses() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let result = try runBench(
            Self.arguments(output: folder.output, processes: 30) + ["--no-progress"],
            environment: ["FANOUT_BENCH_FAULT": "crash:2,exit:5,malformed:8"])
        #expect(result.status == 0, "three of 30 fail, a tenth: the run finishes\n\(result.standardError)")
        let notes = result.standardError
        #expect(notes.contains("process 2 of 30 (seed 2) was killed by SIGSEGV after"), "\(notes)")
        #expect(notes.contains("process 5 of 30 (seed 5) exited with status 1 after"), "\(notes)")
        #expect(notes.contains("planted fault: exit 1"), "why it exited")
        #expect(notes.contains("process 8 of 30 (seed 8) printed no results CSV"), "\(notes)")
        let named = notes.split(separator: "\n").filter { $0.contains("(seed 2)") || $0.contains("(seed 5)") }
        #expect(named.count == 2 && named.allSatisfy { $0.contains(", measuring dispatch/") }, "\(named)")
    }

    @Test("when more than a tenth of the processes fail, the run stops, says why and keeps what it measured")
    func tooManyFailures() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let result = try runBench(
            Self.arguments(output: folder.output, processes: 6) + ["--no-progress"],
            environment: ["FANOUT_BENCH_FAULT": "crash:2"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("1 of 6 processes failed, more than a tenth: the run stops"))
        #expect(!FileManager.default.fileExists(atPath: folder.output))
        let kept = try folder.readCheckpoint()
        #expect(kept.processes.keys.sorted() == ["1"] && kept.failures.count == 1)
    }

    @Test("--resume refuses a checkpoint of another commit or executable, naming the difference")
    func resumeRefusesAnotherBuild() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let stopped = try runBench(
            Self.arguments(output: folder.output, processes: 6) + ["--no-progress"],
            environment: ["FANOUT_BENCH_FAULT": "crash:2"])
        #expect(stopped.status == 1)
        var checkpoint = try folder.readCheckpoint()
        checkpoint.commit = "0123456789ab"
        checkpoint.binary = "feed"
        try JSONEncoder().encode(checkpoint).write(to: URL(fileURLWithPath: folder.checkpoint))
        let refused = try runBench(["--resume", folder.checkpoint])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("commit 0123456789ab then,"), "\(refused.standardError)")
        #expect(refused.standardError.contains("executable feed then,"), "\(refused.standardError)")
        let withOptions = try runBench(["--resume", folder.checkpoint, "--quick"])
        #expect(withOptions.status == 2)
        #expect(withOptions.standardError.contains("'--resume' takes a run's checkpoint and no other option"))
    }

    @Test("an output the filesystem refuses is an error before anything is measured, exit 2", arguments: [
        ("/nonexistent-\(UUID().uuidString)/results.csv", "the directory /nonexistent-"),
        ("/proc/results.csv", "cannot keep what the run measures beside /proc/results.csv"),
        ("/dev/full", "/dev/full: not a regular file"),
    ])
    func refusedOutput(output: String, message: String) throws {
        let result = try runBench(["--quick", "--no-progress", "--output", output])
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("a full disk on standard output is an error, exit 2")
    func fullDisk() throws {
        let result = Subprocess.run("/bin/sh", ["-c", "'\(try benchExecutable())' summary >/dev/full"], currentDirectory: packageRoot)
        #expect(result.status == 2)
        #expect(result.standardError.contains("error: could not write standard output: No space left on device"))
    }

    /// A results CSV cut in a row, with a header of other columns, and with a word for a number.
    static func malformedFiles(in folder: RunFolder) throws -> [(path: String, message: String)] {
        let text = try String(contentsOfFile: packageRoot + "/Results/results.csv", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        var fields = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[11] = "fast"  // ns_per_delivery
        let files = [
            ("truncated", (lines[0...2] + [String(lines[3].prefix(40))]).joined(separator: "\n") + "\n", ":4: "),
            ("header", "benchmark,strategy,nope\n" + lines[1] + "\n", ":1: "),
            ("word", ([lines[0], lines[1], fields.joined(separator: ",")]).joined(separator: "\n") + "\n", ":3: "),
        ]
        return try files.map { name, contents, line in
            let path = folder.path + "/\(name).csv"
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(
                atPath: packageRoot + "/Results/results.charts.json", toPath: folder.path + "/\(name).charts.json")
            return (path, path + line)
        }
    }

    @Test("a malformed results CSV is refused by bench summary, guide and page with its file and line, exit 2")
    func malformedCSVInBench() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        for (path, message) in try Self.malformedFiles(in: folder) {
            for command in ["summary", "guide", "page"] {
                let result = try runBench([command, path])
                #expect(result.status == 2, "bench \(command) \(path)")
                #expect(result.standardError.contains(message), "bench \(command): \(result.standardError)")
            }
        }
        let baseline = folder.path + "/baseline.csv"
        try "benchmark,strategy\ndispatch\n".write(toFile: baseline, atomically: true, encoding: .utf8)
        let check = try runBench(["check", "--baseline", baseline, "--no-instructions", "--no-progress"])
        #expect(check.status == 2)
        #expect(check.standardError.contains("\(baseline):1: "), "\(check.standardError)")
    }

    @Test("a malformed results CSV is refused by the scripts with its file and line, exit 2, and nothing written")
    func malformedCSVInScripts() throws {
        let folder = try RunFolder()
        defer { folder.remove() }
        let committed = packageRoot + "/Results/results.csv"
        for (path, message) in try Self.malformedFiles(in: folder) {
            let commands: [(String, [String])] = [
                ("compare", [path, committed]), ("merge", [path, committed, "--output", folder.path + "/merged.csv"]),
                ("report", [path, "--output", folder.path + "/report"]), ("plot", [path, "--output-dir", folder.path + "/plots"]),
            ]
            for (script, arguments) in commands {
                let result = Subprocess.run(packageRoot + "/scripts/" + script, arguments)
                #expect(result.status == 2, "scripts/\(script) \(path): \(result.standardError)")
                #expect(result.standardError.contains(message), "scripts/\(script): \(result.standardError)")
            }
            for written in ["merged.csv", "report", "plots"] {
                #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + written), "\(written) was written")
            }
        }
        let merge = Subprocess.run(packageRoot + "/scripts/merge", [committed, "--output", "/dev/full"])
        #expect(merge.status == 2)
        #expect(merge.standardError.contains("could not write /dev/full: not a regular file"), "\(merge.standardError)")
    }
}
