import Foundation
import FanoutMicrobench

// `swift run -c release bench [run|list|check|baseline|platform] [options]`, `bench summary|guide|page [FILE]`: see
// BenchOptions.usage.

func fail(_ message: String, showUsage: Bool) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    if showUsage { FileHandle.standardError.write(Data("\n\(BenchOptions.usage)\n".utf8)) }
    exit(2)
}

func note(_ text: String) {
    writeNote(text)
}

let options: BenchOptions
let selection: Selection
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    selection = try Selection(options)
} catch {
    fail(error.message, showUsage: true)
}
if options.showsHelp {
    print(BenchOptions.usage)
    exit(0)
}

switch options.subcommand {
case .check:
    Gate.check(options, filter: selection.filter)
case .baseline:
    Gate.baseline(options, filter: selection.filter)
case .platform:
    let platform = GatePlatform.current()
    print("\(platform) \(platform.baselinePath)")
case .gateInstructions:
    InstructionPass().run(Gate.cases(filter: selection.filter).filter(\.countsInstructions))
case .cacheMisses:
    CacheMissPass().run(selection.cases().filter(ColdFamily.countsCacheMisses))
case .summary, .guide, .page:
    let path = options.input ?? "Results/results.csv"
    let rows: [ResultRow]
    do {
        rows = try CSV.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
    } catch let error as CSV.ParseError {
        fail(error.description, showUsage: false)
    } catch {
        fail("\(path): \(error.localizedDescription)", showUsage: false)
    }
    guard !rows.isEmpty else { fail("\(path): no rows", showUsage: false) }
    var fileOptions = options
    fileOptions.widths = Array(Set(rows.map(\.width))).sorted()
    let fileSelection: Selection
    do { fileSelection = try Selection(fileOptions) } catch { fail(error.message, showUsage: false) }
    let summary = RunSummary(
        rows: rows, selection: fileSelection, seconds: nil, csvPath: path, chartsPath: ChartSpec.manifestPath(forCSV: path))
    do {
        switch options.subcommand {
        case .summary:
            print(summary.lines.joined(separator: "\n"))
        case .guide:
            guard let width = DecisionGuide.briefWidth(of: rows) else {
                fail("\(path): no dispatch rows of the C floor (cFunctionPointer) with every target responding", showUsage: false)
            }
            print(try DecisionGuide(rows: rows, file: path).briefLines(width: width).joined(separator: "\n"))
        default:
            let clientCost = try ResultsPage.readClientCost(ResultsPage.clientCostPath(besideCSV: path))
            let page = ResultsPage(rows: rows, file: path, summary: summary.lines, clientCost: clientCost)
            print(try page.lines().joined(separator: "\n"))
        }
    } catch let error as ResultsPage.Malformed {
        fail(error.description, showUsage: false)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
case .repeatProcess:
    // A fresh process of `repeatInFreshProcesses(of:in:)`: its share of the repeated cases in the order the seed
    // shuffles, timed only, briefly: what varies is between processes, so a run takes many short ones, not a few long.
    let seed = options.seed ?? 0
    var generator = SeededGenerator(seed: UInt64(seed))
    // Moves this process's heap, as the runner moved its stack (`ProcessRepeats.placement(seed:)`); freed once the
    // cases are measured.
    let heapShift = UnsafeMutableRawPointer.allocate(
        byteCount: max(ProcessRepeats.placement(seed: seed).heap, 1), alignment: 16)
    blackHole(heapShift)
    let cases = DispatchFamily.repeatedCases(selection, process: seed, of: processCount(options))
        .shuffled(using: &generator)
    guard !cases.isEmpty else { fail("no dispatch or arity case matches the selection", showUsage: false) }
    var configuration = briefConfiguration(options)
    configuration.countingIterations = 0
    let rows = ProgressReporter(enabled: false).run(cases, runner: Runner(configuration: configuration))
    heapShift.deallocate()
    print(CSV.render(rows), terminator: "")
case .list:
    let names = selection.names()
    guard !names.isEmpty else { fail("no case matches the selection", showUsage: false) }
    for name in names { print(name) }
case .run:
    let cases = selection.cases()
    guard !cases.isEmpty else { fail("no case matches the selection", showUsage: false) }
    let configuration = runConfiguration(options)
    let outputPath = options.output ?? (options.isPartial ? "Results/partial.csv" : "Results/results.csv")
    if !Counters.areAvailable {
        note("warning: built without counting hooks; counter columns are empty")
    }
    let start = MonotonicClock.now()
    // The cases fresh processes measure again are timed briefly here: only their counts are this pass's.
    let isRepeated = { (id: CaseID) in processCount(options) > 1 && DispatchFamily.isRepeated(id) }
    let reporter = ProgressReporter(enabled: options.showsProgress)
    let metadata = RunMetadata.current()
    var measured: [String: ResultRow] = [:]
    let (full, brief) = (Runner(configuration: configuration), Runner(configuration: briefConfiguration(options)))
    let (timed, repeated) = (cases.filter { !isRepeated($0.id) }, cases.filter { isRepeated($0.id) })
    for row in reporter.run(timed, runner: full, metadata: metadata)
        + reporter.run(
            repeated, runner: brief, title: "measuring \(repeated.count) repeated cases once, for their counts",
            metadata: metadata)
    {
        measured[row.name] = row
    }
    var rows = cases.map { measured[$0.name]! }
    rows = countCacheMisses(of: cases, in: rows)
    rows = repeatInFreshProcesses(of: cases, in: rows)
    let seconds = Double(MonotonicClock.now() - start) / 1e9
    let chartsPath = ChartSpec.manifestPath(forCSV: outputPath)
    do {
        try AtomicFile.write(CSV.render(rows), to: outputPath)
        try AtomicFile.write(ChartSpec.manifest(BenchmarkFamilies.charts), to: chartsPath)
    } catch {
        fail("could not write \(outputPath): \(error.localizedDescription)", showUsage: false)
    }
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

/// How many fresh processes a run starts (`--processes`; 120, or 1 with `--quick`).
func processCount(_ options: BenchOptions) -> Int {
    options.processes ?? (options.quick ? 1 : 120)
}

/// What a repeated case is timed with, in a fresh process or, for its counts, in the run's own pass: 2 samples of
/// 0.5 ms in one round after 0.5 ms of warm-up, unless the command line says otherwise.
func briefConfiguration(_ options: BenchOptions) -> RunConfiguration {
    var configuration = runConfiguration(options)
    configuration.samples = options.samples ?? 2
    configuration.rounds = options.rounds ?? 1
    configuration.sampleTimeMilliseconds = options.sampleTimeMilliseconds ?? 0.5
    configuration.warmUpMilliseconds = 0.5
    return configuration
}

/// How long to measure each case: the defaults, `--quick`'s shorter samples, then the options given.
func runConfiguration(_ options: BenchOptions) -> RunConfiguration {
    var configuration = RunConfiguration()
    if options.quick {
        configuration.samples = 6
        configuration.rounds = 2
        configuration.sampleTimeMilliseconds = 0.5
        configuration.warmUpMilliseconds = 2
    }
    if let samples = options.samples { configuration.samples = samples }
    if let rounds = options.rounds { configuration.rounds = rounds }
    if let sampleTime = options.sampleTimeMilliseconds { configuration.sampleTimeMilliseconds = sampleTime }
    return configuration
}

/// This process's arguments without the subcommand `run`, when it was given: what a child process is passed
/// after its own subcommand.
func argumentsWithoutRun() -> [String] {
    let arguments = Array(CommandLine.arguments.dropFirst())
    return arguments.first == "run" ? Array(arguments.dropFirst()) : arguments
}

/// The cold cases' cache-line counts (``CacheMissPass``): this executable
/// again, under callgrind's cache simulation, with the same selection; the
/// rows are returned without them, and a note printed, when it cannot run.
func countCacheMisses(of cases: [BenchmarkCase], in rows: [ResultRow]) -> [ResultRow] {
    let cold = cases.filter(ColdFamily.countsCacheMisses)
    guard !cold.isEmpty else { return rows }
    let pass = CacheMissPass()
    let arguments = ["cache-misses"] + argumentsWithoutRun()
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
/// each in its own shuffled order (`bench repeat --seed k`): the published ones (``DispatchFamily/isPublished(_:_:)``)
/// in every process, each other one in about ten (``DispatchFamily/repeatedCases(_:process:of:)``). Each case's
/// figure is the trimmed mean over its processes, a slowed one set aside (``ProcessFigure``); this process's own
/// measurement does not count (``ProcessRepeats/merge(_:repeats:failures:)``). The rows are returned as they were
/// when no other process runs or none succeeds.
@MainActor func repeatInFreshProcesses(of cases: [BenchmarkCase], in rows: [ResultRow]) -> [ResultRow] {
    let processes = processCount(options)
    let published = Set(cases.map(\.id).filter { DispatchFamily.isPublished($0, selection) }.map(\.name))
    let repeated = Set(cases.map(\.id).filter(DispatchFamily.isRepeated).map(\.name))
    guard processes > 1, !repeated.isEmpty else { return rows }
    if options.showsProgress {
        let others = DispatchFamily.processesPerOtherCase(of: processes)
        note(
            "measuring the \(published.count) published cases again in \(processes) fresh processes, and the other"
                + " \(repeated.count - published.count) dispatch cases in \(others) each")
    }
    let arguments = ["repeat"] + argumentsWithoutRun() + ["--no-progress"]
    let progress = PhaseProgress("fresh processes", total: processes, enabled: options.showsProgress)
    let outcome = ProcessRepeats.measure(
        rows: rows, repeated: repeated, processes: processes, executable: Subprocess.currentExecutable,
        arguments: arguments
    ) { seed in
        progress.update(fraction: Double(seed - 1) / Double(processes), done: seed - 1)
    }
    progress.finish("fresh processes: \(processes) in \(PhaseProgress.duration(progress.elapsed))")
    for failure in outcome.failures { note("warning: \(failure)") }
    if !outcome.placementsFixed {
        note(
            "warning: address randomization could not be turned off for the fresh processes: each drew its own stack"
                + " offset, not its seed's, so the published figures repeat less between runs")
    }
    return outcome.rows
}
