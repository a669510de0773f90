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
/// The checkpoint a resumed run (`--resume FILE`) goes on from, and its path; its arguments are the run's.
let resumed: (path: String, checkpoint: RunCheckpoint)?
do {
    var parsed = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if let path = parsed.resume {
        let checkpoint: RunCheckpoint
        do { checkpoint = try RunCheckpoint.read(path) } catch { fail(error.description, showUsage: false) }
        let showsProgress = parsed.showsProgress
        parsed = try BenchOptions.parse(checkpoint.arguments)
        parsed.showsProgress = parsed.showsProgress && showsProgress
        resumed = (path, checkpoint)
    } else {
        resumed = nil
    }
    options = parsed
    selection = try Selection(options)
} catch {
    fail(error.message, showUsage: true)
}
if options.showsHelp {
    print(BenchOptions.usage)
    exit(0)
}

// A run's children (`repeat`, `cache-misses`) inherit the signals the run ignores and blocks for its handlers
// (`Interruption`): they take the default action again, unblocked, so that the run's stop or deadline ends them.
if [.repeatProcess, .cacheMisses].contains(options.subcommand) {
    var signals = sigset_t()
    sigemptyset(&signals)
    for number in [SIGINT, SIGTERM] {
        signal(number, SIG_DFL)
        sigaddset(&signals, number)
    }
    sigprocmask(SIG_UNBLOCK, &signals, nil)
}

switch options.subcommand {
case .check:
    Gate.check(options, filter: selection.filter)
case .baseline:
    Gate.baseline(options, filter: selection.filter)
case .platform:
    let platform = GatePlatform.current()
    print("\(platform) \(platform.baselinePath)")
case .headline:
    print(DecisionGuide.headlineJSON)
case .gateInstructions:
    InstructionPass().run(Gate.cases(filter: selection.filter).filter(\.countsInstructions))
case .cacheMisses:
    CacheMissPass().run(selection.cases().filter(BenchmarkFamilies.countsCacheMisses))
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
    let cases = BenchmarkFamilies.repeatedCases(selection, process: seed, of: processCount(options))
        .shuffled(using: &generator)
    guard !cases.isEmpty else { fail("no dispatch or arity case matches the selection", showUsage: false) }
    var configuration = briefConfiguration(options)
    configuration.countingIterations = 0
    let fault = InjectedFault.current
    let measurements = Runner(configuration: configuration).measure(cases) { index in
        // The case this process is on, for its run to name if it hangs or crashes.
        FileHandle.standardError.write(Data("\(ProcessRepeats.casePrefix)\(cases[index].name)\n".utf8))
        if index == 1 { fault?.strike(inProcess: seed) }
    }
    let metadata = RunMetadata.current()
    let rows = zip(cases, measurements).map { ResultRow($0, $1, metadata: metadata) }
    heapShift.deallocate()
    print(fault?.output(forProcess: seed) ?? CSV.render(rows), terminator: "")
case .combine:
    combineRuns()
case .list:
    let names = selection.names()
    guard !names.isEmpty else { fail("no case matches the selection", showUsage: false) }
    for name in names { print(name) }
case .run:
    runAndWrite()
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

exitIfStandardOutputFailed()
