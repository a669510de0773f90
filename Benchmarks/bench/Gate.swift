import Fanout
import Foundation
import Microbench

/// The regression gate (`bench check`, `bench baseline`): exact allocation
/// and ARC counts in-process, and instructions per message from one
/// callgrind pass over every gate case, compared with `Results/baseline.csv`
/// under `Results/thresholds.csv`. Wall-clock ratios to the floor are shown
/// and never fail the gate: this machine's speed swings by tens of percent.
enum Gate {
    static let widths = [1, 16, 256]
    static let countingIterations = 200
    /// Two iteration counts; instructions per message are the difference of
    /// their dumps divided by the difference of the counts, so the cost of
    /// the requests and the call into the body cancel out.
    static let instructionIterations = (short: 10, long: 50)
    /// Pairs of dumps per case; the gate takes the median of their estimates,
    /// so a one-off cost (a lazy initialization, a buffer growing) that lands
    /// in one window cannot move the result.
    static let instructionRepeats = 3

    /// Every strategy × every message × widths 1, 16, 256 × both densities.
    static func cases(filter: Regex<AnyRegexOutput>?) -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for contender in Contender.all {
            for message in ScrollViewMessage.allCases {
                for width in widths {
                    for responders in DispatchBenchmarks.responderCounts(width: width) {
                        cases.append(DispatchBenchmarks.dispatchCase(contender, message, width: width, responders: responders))
                    }
                }
            }
        }
        return cases.filter { benchmarkCase in filter.map { benchmarkCase.name.contains($0) } ?? true }
    }

    static func record(_ benchmarkCase: BenchmarkCase, values: [String: Double]) -> GateRecord {
        GateRecord(
            benchmark: benchmarkCase.benchmark, strategy: benchmarkCase.strategy, message: benchmarkCase.message,
            width: benchmarkCase.width, responders: benchmarkCase.responders, values: values)
    }

    // MARK: Measuring

    /// Allocation and ARC counts per message, exact (in-process counters).
    static func counts(of cases: [BenchmarkCase]) -> [String: [String: Double]] {
        var result: [String: [String: Double]] = [:]
        for benchmarkCase in cases {
            let body = benchmarkCase.setUp()
            body(3)
            let counts = Runner.countsPerOperation(of: body, iterations: countingIterations)
            result[benchmarkCase.name] = [
                "mallocs_per_op": counts.mallocs, "retains_per_op": counts.retains, "releases_per_op": counts.releases,
            ]
        }
        return result
    }

    /// The child side of the instruction pass: runs each case twice between
    /// callgrind dumps. Runs under valgrind, started by ``instructions(of:filter:)``.
    static func runInstructionPass(_ cases: [BenchmarkCase]) {
        for benchmarkCase in cases {
            let body = benchmarkCase.setUp()
            body(instructionIterations.long)
            Callgrind.dump("warm-up")
            for repeat_ in 0..<instructionRepeats {
                body(instructionIterations.short)
                Callgrind.dump("\(benchmarkCase.name)#short\(repeat_)")
                body(instructionIterations.long)
                Callgrind.dump("\(benchmarkCase.name)#long\(repeat_)")
            }
        }
    }

    /// Instructions per message for `cases`, from one valgrind pass; `nil`
    /// with a reason when valgrind or the client requests are unavailable.
    static func instructions(of cases: [BenchmarkCase], filter: String?) -> (values: [String: Double]?, note: String?) {
        guard Callgrind.isAvailable else {
            return (nil, "this bench was built without valgrind/callgrind.h: install valgrind, rebuild, and run again")
        }
        guard let valgrind = Subprocess.find("valgrind") else {
            return (nil, "valgrind is not installed (apt-get install valgrind)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-gate-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            return (nil, "cannot create \(directory): \(error)")
        }
        // valgrind 3.19 cannot read the debug info Swift 6.3 emits; a copy without it works.
        let executable = directory + "/bench"
        let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let strip = Subprocess.run(Subprocess.find("strip") ?? "/usr/bin/strip", ["--strip-debug", "-o", executable, this])
        let program = strip.status == 0 ? executable : this
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        let arguments = [
            "--tool=callgrind", "--callgrind-out-file=\(directory)/callgrind.out", "--dump-instr=no", "--dump-line=no",
            program, "gate-instructions",
        ] + (filter.map { ["--filter", $0] } ?? [])
        let result = Subprocess.run(valgrind, arguments, environment: environment)
        guard result.status == 0 else {
            return (nil, "valgrind failed (status \(result.status)): \(result.standardError.suffix(2000))")
        }
        let totals: [String: UInt64]
        do { totals = try Callgrind.totals(inDirectory: directory, prefix: "callgrind.out") } catch {
            return (nil, "cannot read callgrind's dumps: \(error)")
        }
        var values: [String: Double] = [:]
        let span = Double(instructionIterations.long - instructionIterations.short)
        for benchmarkCase in cases {
            var estimates: [Double] = []
            for repeat_ in 0..<instructionRepeats {
                guard let short = totals["\(benchmarkCase.name)#short\(repeat_)"],
                      let long = totals["\(benchmarkCase.name)#long\(repeat_)"] else {
                    return (nil, "callgrind wrote no dump for \(benchmarkCase.name)")
                }
                estimates.append((Double(long) - Double(short)) / span)
            }
            values[benchmarkCase.name] = (estimates.sorted()[estimates.count / 2] * 100).rounded() / 100
        }
        return (values, nil)
    }

    /// The gate records of `cases`: counts, plus instructions when available.
    static func measure(_ cases: [BenchmarkCase], filter: String?, progress: Bool) -> (records: [GateRecord], notes: [String]) {
        if progress { note("counting allocations and ARC calls in \(cases.count) gate cases") }
        let counts = counts(of: cases)
        if progress { note("counting instructions under callgrind (one pass)") }
        let (instructions, problem) = instructions(of: cases, filter: filter)
        var notes: [String] = []
        if let problem {
            notes.append("WARNING: instructions not measured (\(problem)); gating on allocation and ARC counts only")
        } else {
            notes.append("instructions per message counted by callgrind: median of \(instructionRepeats) estimates of (\(instructionIterations.long) − \(instructionIterations.short) messages) per case")
        }
        let records = cases.map { benchmarkCase in
            var values = counts[benchmarkCase.name] ?? [:]
            values["instructions_per_op"] = instructions?[benchmarkCase.name]
            return record(benchmarkCase, values: values)
        }
        return (records, notes)
    }

    /// Median ns per delivery and its ratio to the floor's, for the report only.
    static func timeRatios(_ cases: [BenchmarkCase]) -> String {
        var configuration = RunConfiguration()
        configuration.samples = 5
        configuration.rounds = 1
        configuration.sampleTimeMilliseconds = 0.5
        configuration.warmUpMilliseconds = 1
        configuration.countingIterations = 0
        let floors = cases.map { benchmarkCase in
            DispatchBenchmarks.floorCase(
                ScrollViewMessage.allCases.first { "\($0)" == benchmarkCase.message }!, width: benchmarkCase.width,
                responders: benchmarkCase.responders)
        }
        let measured = Runner(configuration: configuration).measure(cases + floors)
        var lines = ["time (informational, never gated): ns per delivery, median of 5 samples, and × the floor"]
        for (index, benchmarkCase) in cases.enumerated() {
            let perDelivery = measured[index].nanosecondsPerOperation.median / Double(max(benchmarkCase.deliveriesPerOperation, 1))
            let floor = measured[cases.count + index].nanosecondsPerOperation.median / Double(max(benchmarkCase.deliveriesPerOperation, 1))
            lines.append("  \(benchmarkCase.name)  \(Report.fixed(perDelivery)) ns  \(Report.fixed(perDelivery / max(floor, 0.001), decimals: 1))×")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Commands

    /// `bench check`: exits 0 on pass, 1 on a regression, 2 on bad input.
    static func check(_ options: BenchOptions, filter: Regex<AnyRegexOutput>?) -> Never {
        let baseline: [GateRecord]
        let thresholds: GateThresholds
        do {
            baseline = try GateRecord.parse(try readFile(options.baselinePath), file: options.baselinePath)
            thresholds = try GateThresholds.parse(try readFile(options.thresholdsPath), file: options.thresholdsPath)
        } catch {
            fail("\(error)", showUsage: false)
        }
        let cases = cases(filter: filter)
        guard !cases.isEmpty else { fail("no gate case matches the selection", showUsage: false) }
        let (records, notes) = measure(cases, filter: options.filter, progress: options.showsProgress)
        let selectedBaseline = filter == nil ? baseline : baseline.filter { record in cases.contains { $0.name == record.name } }
        let comparison = GateComparison(baseline: selectedBaseline, current: records, thresholds: thresholds)
        for text in notes { note(text) }
        print(comparison.table(), terminator: "")
        print(timeRatios(cases), terminator: "")
        let summary = comparison.markdown(notes: notes)
        do {
            try AtomicFile.write(summary, to: options.summaryPath)
            if let jobSummary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !jobSummary.isEmpty,
               let handle = FileHandle(forWritingAtPath: jobSummary) {
                handle.seekToEndOfFile()
                handle.write(Data(summary.utf8))
                try? handle.close()
            }
        } catch {
            note("could not write \(options.summaryPath): \(error)")
        }
        for regression in comparison.regressions {
            print("REGRESSION \(regression.caseName) \(regression.metric): \(GateComparison.format(regression.baseline ?? 0)) -> \(GateComparison.format(regression.current ?? 0)) (allowed \(GateComparison.format(regression.allowed ?? 0)))")
        }
        for name in comparison.missing { print("MISSING \(name): in the baseline but not measured") }
        if !comparison.improvements.isEmpty {
            print("\(comparison.improvements.count) improvements: lock them in with `swift run -c release bench baseline` and commit Results/baseline.csv")
        }
        print(comparison.passes ? "gate: PASS" : "gate: FAIL (\(comparison.regressions.count) regressions, \(comparison.missing.count) missing)")
        exit(comparison.passes ? 0 : 1)
    }

    /// `bench baseline`: measures the gate cases and writes the baseline.
    static func baseline(_ options: BenchOptions) -> Never {
        let (records, notes) = measure(cases(filter: nil), filter: nil, progress: options.showsProgress)
        for text in notes { note(text) }
        do { try AtomicFile.write(GateRecord.render(records), to: options.baselinePath) } catch {
            fail("could not write \(options.baselinePath): \(error)", showUsage: false)
        }
        print("wrote \(records.count) gate cases to \(options.baselinePath); review the diff and commit it")
        exit(0)
    }

    // MARK: Helpers

    static func readFile(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CSV.ParseError(file: path, line: 0, reason: "missing (create it with `swift run -c release bench baseline`)")
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }

}
