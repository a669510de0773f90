/// The command line of `bench`, parsed by hand in the manner of
/// swift-argument-parser tools: `--flag value` or `--flag=value`, a usage
/// error for anything unknown or malformed.
public struct BenchOptions: Equatable, Sendable {
    /// What `bench` does.
    public enum Subcommand: String, CaseIterable, Sendable {
        /// Measure and report (the default).
        case run
        /// List the cases that would run.
        case list
        /// Run the regression gate against the committed baseline.
        case check
        /// Record the gate's counts as the new baseline.
        case baseline
        /// Print the platform's name and the baseline the gate uses for it.
        case platform
        /// Print, as JSON, the slice of the results the decision guide reads (its benchmark, message and floor), which
        /// the scripts read from `Results/headline.json`: they name no family.
        case headline
        /// Print the one-screen summary of a results CSV (``BenchOptions/input``).
        case summary
        /// Print the README's decision table of a results CSV, as Markdown (``BenchOptions/input``).
        case guide
        /// Print the results page of a results CSV, as Markdown (``BenchOptions/input``): `Results/README.md`.
        case page
        /// Combine three or more full runs of one build on one CPU (``BenchOptions/inputs``) into the published
        /// results and the CPU's record (`Results/records/`).
        case combine
        /// Internal: the gate's instruction pass, run under callgrind by `check`.
        case gateInstructions = "gate-instructions"
        /// Internal: the cold cases' cache simulation, run under callgrind by `run`.
        case cacheMisses = "cache-misses"
        /// A fresh process of a run (`ProcessRepeats`): measures its share of the run's repeated cases (every
        /// published one, a share of the other dispatch and arity cases) in the order `--seed` shuffles and prints
        /// their rows as CSV.
        case repeatProcess = "repeat"
    }

    /// What `bench` prints on standard output.
    public enum Format: String, CaseIterable, Sendable {
        /// One screen: per message, strategies × widths, and the scenarios' figures.
        case summary
        /// One line per case.
        case table
        case csv, json
    }

    public var subcommand: Subcommand = .run
    /// The results CSV `summary`, `guide` and `page` read (default Results/results.csv).
    public var input: String?
    /// The results CSVs of the full runs `combine` reads.
    public var inputs: [String] = []
    /// A regular expression matched against case names (`benchmark/strategy/message/width/responders`).
    public var filter: String?
    public var strategies: [String]?
    public var widths: [Int]?
    public var messages: [String]?
    public var quick = false
    public var samples: Int?
    public var rounds: Int?
    public var sampleTimeMilliseconds: Double?
    public var output: String?
    public var format: Format = .summary
    public var showsProgress = true
    public var showsHelp = false
    /// The gate's baseline; `nil` for the current platform's,
    /// ``GatePlatform/baselinePath``.
    public var baselinePath: String?
    public var thresholdsPath = "Results/thresholds.csv"
    public var summaryPath = ".build/gate-summary.md"
    /// Where `check` writes the records it measured.
    public var recordsPath = ".build/gate-current.csv"
    /// Where `check` writes its counts for github-action-benchmark
    /// (`customSmallerIsBetter`), if anywhere.
    public var benchmarkJSONPath: String?
    /// `check` and `baseline` without the callgrind pass.
    public var countsOnly = false
    /// Processes that measure the published cases (`--processes`); `nil` for the default.
    public var processes: Int?
    /// The shuffle of a `repeat` process (`--seed`).
    public var seed: Int?
    /// The checkpoint of an interrupted run to go on from (`--resume`).
    public var resume: String?
    /// How long a fresh process may run, in seconds (`--process-deadline`); `nil` for ten times its expected time,
    /// at least 30 s.
    public var processDeadline: Double?

    public init() {}

    /// Whether the options select less than the full matrix.
    public var isPartial: Bool {
        filter != nil || strategies != nil || widths != nil || messages != nil || quick
    }

    /// A command-line mistake, with the message to print above the usage.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown flag or subcommand, a missing
    ///   value, or a value that is not what the flag takes.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var sawSubcommand = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-") else {
                if sawSubcommand, [.summary, .guide, .page].contains(options.subcommand), options.input == nil {
                    options.input = argument
                    continue
                }
                if sawSubcommand, options.subcommand == .combine {
                    options.inputs.append(argument)
                    continue
                }
                guard !sawSubcommand, let subcommand = Subcommand(rawValue: argument) else {
                    throw UsageError(
                        sawSubcommand
                            ? "unexpected argument '\(argument)'"
                            : "unknown subcommand '\(argument)' (expected one of: run, list, check, baseline, platform, headline, summary, guide, page, combine)"
                    )
                }
                options.subcommand = subcommand
                sawSubcommand = true
                continue
            }
            var flag = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError("missing value for '\(flag)'")
                }
                return next
            }
            /// The flag's value as an integer that `isAllowed` accepts; otherwise a usage error saying it takes `what`.
            func integer(_ what: String, where isAllowed: (Int) -> Bool) throws(UsageError) -> Int {
                let text = try value()
                guard let number = Int(text), isAllowed(number) else {
                    throw UsageError("'\(flag)' takes \(what), got '\(text)'")
                }
                return number
            }
            /// The flag's value as a positive, finite number of `unit`; otherwise a usage error saying so.
            func positiveNumber(of unit: String) throws(UsageError) -> Double {
                let text = try value()
                guard let number = Double(text), number > 0, number.isFinite else {
                    throw UsageError("'\(flag)' takes a positive number of \(unit), got '\(text)'")
                }
                return number
            }
            /// The flag's value, a path; a usage error saying it needs `what` when it is empty.
            func path(_ what: String) throws(UsageError) -> String {
                let path = try value()
                guard !path.isEmpty else { throw UsageError("'\(flag)' needs \(what)") }
                return path
            }
            func noValue() throws(UsageError) {
                if inlineValue != nil { throw UsageError("'\(flag)' takes no value") }
            }
            switch flag {
            case "--filter":
                let pattern = try value()
                do { _ = try Regex(pattern) } catch {
                    throw UsageError("'--filter' needs a valid regular expression, got '\(pattern)'")
                }
                options.filter = pattern
            case "--strategies": options.strategies = try list(try value(), flag: flag)
            case "--messages": options.messages = try list(try value(), flag: flag)
            case "--widths":
                options.widths = try list(try value(), flag: flag).map { (text) throws(UsageError) -> Int in
                    guard let width = Int(text), width > 0 else {
                        throw UsageError("'--widths' takes positive integers, got '\(text)'")
                    }
                    return width
                }
            case "--samples": options.samples = try integer("a positive integer") { $0 >= 1 }
            case "--rounds": options.rounds = try integer("a positive integer") { $0 >= 1 }
            case "--sample-time": options.sampleTimeMilliseconds = try positiveNumber(of: "milliseconds")
            case "--processes": options.processes = try integer("an integer from 1 to 1000") { (1...1000).contains($0) }
            case "--resume": options.resume = try path("the path of a run's checkpoint")
            case "--process-deadline": options.processDeadline = try positiveNumber(of: "seconds")
            case "--seed": options.seed = try integer("a non-negative integer") { $0 >= 0 }
            case "--output": options.output = try path("a path")
            case "--format":
                let text = try value()
                guard let format = Format(rawValue: text) else {
                    throw UsageError("'--format' takes summary, table, csv or json, got '\(text)'")
                }
                options.format = format
            case "--baseline": options.baselinePath = try value()
            case "--thresholds": options.thresholdsPath = try value()
            case "--summary": options.summaryPath = try value()
            case "--records": options.recordsPath = try value()
            case "--benchmark-json": options.benchmarkJSONPath = try value()
            case "--no-instructions":
                try noValue()
                options.countsOnly = true
            case "--quick":
                try noValue()
                options.quick = true
            case "--no-progress":
                try noValue()
                options.showsProgress = false
            case "--help", "-h":
                try noValue()
                options.showsHelp = true
            default: throw UsageError("unknown option '\(flag)'")
            }
        }
        if options.subcommand == .combine {
            // It reads runs and writes the results and the record: it takes the runs and --output alone.
            var bare = BenchOptions()
            bare.subcommand = .combine
            bare.inputs = options.inputs
            bare.output = options.output
            bare.showsHelp = options.showsHelp
            bare.showsProgress = options.showsProgress
            guard options == bare else {
                throw UsageError("'bench combine' takes the results CSVs of full runs and --output, no other option")
            }
            guard options.inputs.count >= 3 || options.showsHelp else {
                throw UsageError(
                    "'bench combine' takes three or more results CSVs of full runs, got \(options.inputs.count)")
            }
        }
        if options.resume != nil {
            // A resumed run takes its options from its checkpoint: any other would be ignored, so it is refused.
            var bare = BenchOptions()
            bare.resume = options.resume
            bare.showsProgress = options.showsProgress
            guard options == bare else {
                throw UsageError("'--resume' takes a run's checkpoint and no other option but --no-progress")
            }
        }
        if options.seed != nil && options.subcommand != .repeatProcess {
            let subcommand = options.subcommand.rawValue
            throw UsageError("'--seed' is for the processes a run starts, not for 'bench \(subcommand)'")
        }
        if [.summary, .guide, .page].contains(options.subcommand) {
            // They print a file: a selection or a run's option would be ignored, so it is refused.
            var bare = BenchOptions()
            bare.subcommand = options.subcommand
            bare.input = options.input
            bare.showsHelp = options.showsHelp
            bare.showsProgress = options.showsProgress
            guard options == bare else {
                throw UsageError("'bench \(options.subcommand.rawValue)' takes a results CSV and no other option")
            }
        }
        return options
    }

    static func list(_ text: String, flag: String) throws(UsageError) -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingCharacters(in: " ") }
        guard !items.isEmpty, items.allSatisfy({ !$0.isEmpty }) else {
            throw UsageError("'\(flag)' takes a comma-separated list, got '\(text)'")
        }
        return items
    }

    /// The help text.
    public static let usage = """
        USAGE: bench [run|list|check|baseline|platform|headline] [options]
               bench summary|guide|page [FILE]
               bench combine RUN.csv RUN.csv RUN.csv... [--output FILE]
               bench --resume FILE

        SUBCOMMANDS:
          run (default)           Measure every selected case; print a one-screen summary; write the CSV and
                                  the chart declarations beside it.
          list                    Print the names of the selected cases and exit.
          check                   The regression gate: count allocations, ARC calls and instructions for the gate
                                  cases and compare them with the baseline. Exit 0 pass; 1 regression, missing
                                  case, or (with CI=true) instructions not measured; 2 bad input; 3 stale
                                  baseline: a case improved beyond its tolerance, or (with CI=true) is new.
          baseline                Record the gate's counts as the new baseline (review, then commit it); with
                                  --filter, re-record the matching cases and keep the others.
          platform                Print this platform's name (<os>-<arch>-<swift version>) and its baseline's path.
          headline                Print the slice of the results the decision guide reads (benchmark, message, C
                                  floor) as JSON: Results/headline.json, which the scripts read.
          summary [FILE]          Print the one-screen summary of a results CSV (default Results/results.csv), as a
                                  run prints it.
          guide [FILE]            Print the README's decision table of a results CSV as Markdown: each need's
                                  multiplexer at width 4, against the C floor.
          page [FILE]             Print the results page of a results CSV as Markdown (Results/README.md): the
                                  decision guide in full, the summary, what a client pays, the charts.
          combine RUN.csv...      Combine three or more full runs of one build on one CPU, started at least 20
                                  min apart: each figure the runs' mean with the interval their spread gives,
                                  into --output (default Results/results.csv), and the runs into the CPU's
                                  record, Results/records/<cpu>.csv, which later runs' intervals read.

        OPTIONS:
          --filter <regex>        Only cases whose name matches (name: benchmark/strategy/message/width/responders).
          --strategies <a,b,...>  Only these strategies or peers (e.g. existentialArray,floor).
          --widths <1,16,256>     Only these fan-out widths.
          --messages <m,...>      Only these messages (didScroll, didEndDragging, shouldScrollToTop,
                          viewForZooming, willEndDragging).
          --quick                 A small matrix for smoke runs and CI.
          --samples <n>           Timed samples per case (default 30).
          --rounds <n>            Passes over all cases that the samples are spread across (default 10).
          --sample-time <ms>      Target duration of one sample in milliseconds (default 2).
          --processes <n>         Measure the dispatch and arity cases again in n fresh processes, each in its
                                  own shuffled order (2 samples each): the published ones (at the summary's widths,
                                  every target responding) in all n, the others in about ten; a case's figure is
                                  the mean over its processes, a slowed one and the fastest and slowest tenth left
                                  out. 1 keeps this process's own figures (default 120; 1 with --quick).
          --resume <file>         Go on with an interrupted run from its checkpoint (results.partial.json beside
                                  its output): measure only what it lacks, then write the complete results.
          --process-deadline <s>  Kill a fresh process that runs longer (default ten times its expected time, at
                                  least 30 s); it is named and set aside, and the run goes on.
          --output <path>         Where to write the CSV (default Results/results.csv for a full run,
                                  Results/partial.csv when any selection flag is given).
          --format <fmt>          What to print on standard output: summary (default), table (one line per
                                  case), csv or json.
          --no-progress           Do not report progress on standard error.
          --baseline <path>       Gate baseline (default Results/baselines/<os>-<arch>-<swift version>.csv,
                                  this platform's; without one, check reports and does not gate).
          --thresholds <path>     Gate thresholds (default Results/thresholds.csv).
          --summary <path>        Markdown summary of the gate (default .build/gate-summary.md).
          --records <path>        The records check measured (default .build/gate-current.csv).
          --benchmark-json <path> Also write check's counts as github-action-benchmark JSON
                                  (customSmallerIsBetter).
          --no-instructions       Gate on allocation and ARC counts only (no callgrind pass).
          -h, --help              Show this help.
        """
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var slice = self[...]
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return String(slice)
    }
}
