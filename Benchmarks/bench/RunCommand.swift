import Foundation
import FanoutMicrobench

/// What a child process is passed after its own subcommand: the run's arguments, without `run` (a resumed run's are
/// its checkpoint's).
var runArguments: [String] {
    if let resumed { return resumed.checkpoint.arguments }
    let arguments = Array(CommandLine.arguments.dropFirst())
    return arguments.first == "run" ? Array(arguments.dropFirst()) : arguments
}

/// `bench run` (or `bench --resume FILE`): measures what the run (or its checkpoint) lacks, keeping each step in the
/// checkpoint beside the output as it ends, then writes the results, the CSV before the charts that point at it, and
/// removes the checkpoint. On SIGINT or SIGTERM it stops its children and exits 130 or 143, the checkpoint whole.
@MainActor func runAndWrite() {
    let cases = selection.cases()
    guard !cases.isEmpty else { fail("no case matches the selection", showUsage: false) }
    let outputPath =
        resumed?.checkpoint.output ?? options.output ?? (options.isPartial ? "Results/partial.csv" : "Results/results.csv")
    let directory = URL(fileURLWithPath: outputPath).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("\(outputPath): the directory \(directory) does not exist", showUsage: false)
    }
    if let attributes = try? FileManager.default.attributesOfItem(atPath: outputPath),
        attributes[.type] as? FileAttributeType != .typeRegular
    {
        fail("\(outputPath): not a regular file: the results are written beside it and renamed over it", showUsage: false)
    }
    let binary = Subprocess.executableFingerprint()
    if let resumed, let difference = resumed.checkpoint.difference(from: .current(), binary: binary) {
        fail("\(resumed.path): measured by another build or machine (\(difference)): run again from the start", showUsage: false)
    }
    let metadata = resumed?.checkpoint.metadata ?? .current()
    let checkpoint = CheckpointFile(
        path: resumed?.path ?? RunCheckpoint.path(forOutput: outputPath),
        checkpoint: resumed?.checkpoint
            ?? RunCheckpoint(arguments: runArguments, output: outputPath, metadata: metadata, binary: binary))
    do { try checkpoint.writeNow() } catch {
        fail("cannot keep what the run measures beside \(outputPath): \(error.localizedDescription)", showUsage: false)
    }
    Interruption.install(checkpoint, processes: processCount(options))
    if !Counters.areAvailable { note("warning: built without counting hooks; counter columns are empty") }
    if let resumed { note("going on from \(resumed.path)") }

    let start = MonotonicClock.now()
    let kept: [ResultRow]
    do { kept = try checkpoint.checkpoint.passRows(file: checkpoint.path) } catch { fail(error.description, showUsage: false) }
    var measured = Dictionary(kept.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    // The cases fresh processes measure again are timed briefly here: only their counts are this pass's.
    let isRepeated = { (id: CaseID) in processCount(options) > 1 && BenchmarkFamilies.isRepeated(id) }
    let missing = cases.filter { measured[$0.name] == nil }
    let (timed, repeated) = (missing.filter { !isRepeated($0.id) }, missing.filter { isRepeated($0.id) })
    let reporter = ProgressReporter(enabled: options.showsProgress)
    let keep = { (rows: [ResultRow]) in
        for row in rows { measured[row.name] = row }
        checkpoint.update { $0.rows = CSV.render(cases.compactMap { measured[$0.name] }) }
        InjectedFault.current?.strikeAfterPass()
    }
    // Each family of the pass is kept as it ends; the repeated cases, timed briefly, once all are.
    reporter.run(timed, runner: Runner(configuration: runConfiguration(options)), metadata: metadata, completed: keep)
    reporter.run(
        repeated, runner: Runner(configuration: briefConfiguration(options)),
        title: "measuring \(repeated.count) repeated cases once, for their counts", metadata: metadata,
        familyByFamily: false, completed: keep)
    var rows = cases.map { measured[$0.name]! }
    if !checkpoint.checkpoint.cacheMissesCounted {
        rows = countCacheMisses(of: cases, in: rows)
        checkpoint.update {
            $0.rows = CSV.render(rows)
            $0.cacheMissesCounted = true
        }
    }
    rows = repeatInFreshProcesses(of: cases, in: rows, checkpoint: checkpoint)
    let seconds = Double(MonotonicClock.now() - start) / 1e9
    let chartsPath = ChartSpec.manifestPath(forCSV: outputPath)
    do {
        try AtomicFile.write(CSV.render(rows), to: outputPath)
        try AtomicFile.write(ChartSpec.manifest(BenchmarkFamilies.charts), to: chartsPath)
    } catch {
        let kept = checkpoint.keep()
        fail(
            "could not write \(outputPath): \(error.localizedDescription); "
                + (kept.map { "what the run measured is kept in \($0): once it can be written, `bench --resume \($0)`" }
                    ?? "what the run measured could not be kept either"),
            showUsage: false)
    }
    checkpoint.remove()
    switch options.format {
    case .summary:
        let summary = RunSummary(rows: rows, selection: selection, seconds: seconds, csvPath: outputPath, chartsPath: chartsPath)
        print(summary.lines.joined(separator: "\n"))
    case .table: print(Report.table(rows), terminator: "")
    case .csv: print(CSV.render(rows), terminator: "")
    case .json: print(Report.json(rows), terminator: "")
    }
    note("wrote \(rows.count) rows to \(outputPath) and the chart declarations to \(chartsPath)")
}

/// `bench combine RUN.csv…`: full runs of one build on one CPU, three of them at least 20 min apart, into the published
/// results (each figure the runs' mean, with the interval their spread gives) and the CPU's record, which the
/// intervals of later runs on that CPU read (``RunRecord``). Both written atomically, the record first.
func combineRuns() {
    var runs: [[ResultRow]] = []
    for path in options.inputs {
        do {
            runs.append(try CSV.parse(try String(contentsOfFile: path, encoding: .utf8), file: path))
        } catch let error as CSV.ParseError {
            fail(error.description, showUsage: false)
        } catch {
            fail("\(path): \(error.localizedDescription)", showUsage: false)
        }
    }
    if let refusal = RunRecord.refusal(of: runs) { fail(refusal, showUsage: false) }
    let output = options.output ?? "Results/results.csv"
    let record = RunRecord.path(forCPU: runs[0][0].metadata.cpu)
    let combined = RunRecord.combined(runs)
    do {
        // The record keeps the cases measured in fresh processes: those whose figures carry an interval.
        try AtomicFile.write(CSV.render(runs.flatMap { $0.filter { ($0.processes ?? 0) > 1 } }), to: record)
        try AtomicFile.write(CSV.render(combined), to: output)
        try AtomicFile.write(ChartSpec.manifest(BenchmarkFamilies.charts), to: ChartSpec.manifestPath(forCSV: output))
    } catch {
        fail("could not write \(output) or \(record): \(error.localizedDescription)", showUsage: false)
    }
    note("combined \(runs.count) runs of \(combined.count) cases into \(output); their rows are the record of \(runs[0][0].metadata.cpu), \(record)")
}

/// The cold cases' cache-line counts (``CacheMissPass``): this executable
/// again, under callgrind's cache simulation, with the same selection; the
/// rows are returned without them, and a note printed, when it cannot run.
@MainActor func countCacheMisses(of cases: [BenchmarkCase], in rows: [ResultRow]) -> [ResultRow] {
    let cold = cases.filter(BenchmarkFamilies.countsCacheMisses)
    guard !cold.isEmpty else { return rows }
    let pass = CacheMissPass()
    let arguments = ["cache-misses"] + runArguments
    if options.showsProgress { note("counting the cold cases' cache misses under callgrind (\(cold.count) cases)") }
    switch pass.measure(caseNames: cold.map(\.name), arguments: arguments) {
    case .success(let misses):
        let deliveries = Dictionary(uniqueKeysWithValues: cold.map { ($0.name, max($0.deliveriesPerOperation, 1)) })
        return rows.map { row in
            var row = row
            if let count = misses[row.name], let perOperation = deliveries[row.name] {
                row.cacheMissesPerDelivery = count / Double(perOperation)
            }
            return row
        }
    case .failure(let error):
        note("warning: the cold cases' cache misses were not counted: \(error)")
        return rows
    }
}

/// The dispatch and arity cases measured again in `--processes` fresh processes of this executable, one at a time,
/// each in its own shuffled order (`bench repeat --seed k`): the published ones (``BenchmarkFamilies/isPublished(_:_:)``)
/// in every process, each other one in about ten (``BenchmarkFamilies/repeatedCases(_:process:of:)``). Each case's
/// figure is the trimmed mean over its processes, a slowed one set aside (``ProcessFigure``); this process's own
/// measurement does not count (``ProcessRepeats/merge(_:repeats:failures:record:)``). Each process's rows are kept in the
/// checkpoint as it ends, and a resumed run starts only the processes its checkpoint lacks. A process that fails or
/// runs past its deadline is named and set aside; when more than a tenth fail, the run stops (exit 1), its checkpoint
/// kept. The rows are returned as they were when no other process runs or none succeeds.
@MainActor func repeatInFreshProcesses(
    of cases: [BenchmarkCase], in rows: [ResultRow], checkpoint: CheckpointFile
) -> [ResultRow] {
    let processes = processCount(options)
    let published = Set(cases.map(\.id).filter { BenchmarkFamilies.isPublished($0, selection) }.map(\.name))
    let repeated = Set(cases.map(\.id).filter(BenchmarkFamilies.isRepeated).map(\.name))
    guard processes > 1, !repeated.isEmpty else { return rows }
    let measured: [Int: [ResultRow]]
    let record: RunRecord?
    do {
        measured = try checkpoint.checkpoint.processRows(file: checkpoint.path)
        record = try RunRecord.load(forCPU: checkpoint.checkpoint.cpu)
    } catch {
        fail(error.description, showUsage: false)
    }
    if options.showsProgress {
        let others = BenchmarkFamilies.processesPerOtherCase(of: processes)
        note(
            "measuring the \(published.count) published cases again in \(processes) fresh processes, and the other"
                + " \(repeated.count - published.count) dispatch cases in \(others) each"
                + (measured.isEmpty ? "" : " (\(measured.count) measured before)"))
    }
    // What a process's work should take: its cases' warm-up, calibration and samples, and its start.
    let configuration = briefConfiguration(options)
    let perCase = (configuration.warmUpMilliseconds + 0.5 + Double(configuration.samples) * configuration.sampleTimeMilliseconds) / 1000
    let expected = 1 + Double(BenchmarkFamilies.repeatedCases(selection, process: 1, of: processes).count) * perCase
    let arguments = ["repeat"] + runArguments + ["--no-progress"]
    let progress = PhaseProgress("fresh processes", total: processes, enabled: options.showsProgress)
    let outcome = ProcessRepeats.measure(
        rows: rows, repeated: repeated, processes: processes, executable: Subprocess.currentExecutable,
        arguments: arguments, deadline: options.processDeadline ?? ProcessRepeats.deadline(expected: expected),
        measured: measured, failures: checkpoint.checkpoint.failures, record: record,
        started: { seed in progress.update(fraction: Double(seed - 1) / Double(processes), done: seed - 1) },
        finished: { seed, processRows in
            checkpoint.update(atMostEvery: 15) { $0.processes[String(seed)] = CSV.render(processRows) }
        },
        failed: { failure in
            note("warning: \(failure)")
            checkpoint.update { $0.failures.append(failure) }
        })
    progress.finish("fresh processes: \(processes) in \(PhaseProgress.duration(progress.elapsed))")
    if let stopped = outcome.stopped {
        note("error: \(stopped); what the run measured is kept in \(checkpoint.path)")
        exit(1)
    }
    if !outcome.placementsFixed {
        note(
            "warning: address randomization could not be turned off for the fresh processes: each drew its own stack"
                + " offset, not its seed's, so the published figures repeat less between runs")
    }
    return outcome.rows
}

/// What a run does on SIGINT or SIGTERM: stops its children, writes its checkpoint whole, says where it is and how
/// to go on, and exits 128 + the signal (130, 143), within the time a checkpoint takes to write.
enum Interruption {
    /// The signal sources, kept alive for the run.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func install(_ checkpoint: CheckpointFile, processes: Int) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                Subprocess.terminateRunning()
                checkpoint.finish { kept in
                    let rows = (try? kept.passRows(file: checkpoint.path))?.count ?? 0
                    writeNote(
                        "\ninterrupted by \(Subprocess.signalName(signalNumber)): \(rows) cases and \(kept.processes.count)"
                            + " of \(processes) fresh processes measured are kept in \(checkpoint.path)"
                            + " (\(kept.output) is unchanged); go on with: swift run -c release bench --resume"
                            + " \(checkpoint.path)")
                }
                _exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// Faults a test plants in a run through the environment (`FANOUT_BENCH_FAULT=KIND:WHERE[,KIND:WHERE…]`), to prove
/// that a run survives them: a fresh process (WHERE its seed) that hangs, crashes with SIGSEGV, exits 1 or prints a
/// malformed CSV (KIND `hang`, `crash`, `exit`, `malformed`), or the run itself pausing once its first family is kept
/// (`pause:pass`), for a signal to find it there. Not an option: nothing else should plant one.
struct InjectedFault {
    let faults: [(kind: String, place: String)]

    static let current: InjectedFault? = {
        guard let text = ProcessInfo.processInfo.environment["FANOUT_BENCH_FAULT"] else { return nil }
        return InjectedFault(
            faults: text.split(separator: ",").compactMap { item in
                let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            })
    }()

    private func planted(_ kind: String, at place: String) -> Bool {
        faults.contains { $0.kind == kind && $0.place == place }
    }

    /// In fresh process `seed`, on its second case: hangs, crashes or exits, as planted.
    func strike(inProcess seed: Int) {
        if planted("hang", at: String(seed)) { while true { sleep(60) } }
        if planted("crash", at: String(seed)) { raise(SIGSEGV) }
        if planted("exit", at: String(seed)) {
            writeNote("planted fault: exit 1")
            exit(1)
        }
    }

    /// What fresh process `seed` prints instead of its CSV, if a malformed one is planted there.
    func output(forProcess seed: Int) -> String? {
        planted("malformed", at: String(seed)) ? "benchmark,strategy\nnot,a results CSV\n" : nil
    }

    /// After a family of the run's pass is kept: pauses for a signal, if planted there.
    func strikeAfterPass() {
        guard planted("pause", at: "pass") else { return }
        writeNote("planted fault: paused after the first family")
        while true { sleep(60) }
    }
}
