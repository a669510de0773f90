import Foundation

/// The regression gate's two commands over a list of cases: `check` counts
/// allocations and ARC calls in-process and instructions in one callgrind
/// pass, and compares them with a baseline under thresholds; `baseline`
/// records them.
///
/// What is Fanout's (the cases, the reference for the time column) comes
/// from the caller; the counting, the callgrind child, the comparison and
/// the report are here.
public struct RegressionGate {
    /// The gate cases.
    public var cases: [BenchmarkCase]
    /// Operations per case in the counting pass.
    public var countingIterations = 200
    public var instructionPass = InstructionPass()
    /// The arguments that make this executable run ``InstructionPass/run(_:)``
    /// over the same cases (the callgrind child).
    public var childArguments: [String]
    /// The case each case's time is compared with in the informational time
    /// column (Fanout: the floor); `nil` for no time column.
    public var timeReference: ((BenchmarkCase) -> BenchmarkCase)?
    /// The environment: `CI=true` makes new cases and unmeasured instructions fail.
    public var environment: [String: String]

    public init(
        cases: [BenchmarkCase], childArguments: [String],
        timeReference: ((BenchmarkCase) -> BenchmarkCase)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.cases = cases
        self.childArguments = childArguments
        self.timeReference = timeReference
        self.environment = environment
    }

    /// Whether this run is CI's (`CI=true`), where the gate is strict.
    public var isCI: Bool { environment["CI"] == "true" }

    // MARK: Measuring

    /// The gate records of the cases: counts, and instructions unless
    /// `countsOnly`; notes for the report; whether instructions were wanted
    /// but could not be measured.
    public func measure(countsOnly: Bool, progress: Bool) -> (
        records: [GateRecord], notes: [String], instructionsMissing: Bool
    ) {
        var counts: [String: CountsPerOperation] = [:]
        var notes: [String] = []
        if Counters.areAvailable {
            if progress { note("counting allocations and ARC calls in \(cases.count) gate cases") }
        } else {
            // Zeros would read as counts: leave the metrics out (a sanitizer build, or not glibc).
            notes.append(
                "allocation and ARC counts not measured: the counters are compiled out of this build (a sanitizer build, or a C library other than glibc)"
            )
        }
        for benchmarkCase in cases where Counters.areAvailable {
            let body = benchmarkCase.setUp()
            body(3)
            counts[benchmarkCase.name] = Runner.countsPerOperation(of: body, iterations: countingIterations)
        }
        var instructions: [String: Double]?
        var instructionsMissing = false
        if countsOnly {
            notes.append("instructions not measured (--no-instructions): gating on allocation and ARC counts only")
        } else {
            if progress { note("counting instructions under callgrind (one pass)") }
            switch instructionPass.measure(
                caseNames: cases.filter(\.countsInstructions).map(\.name), arguments: childArguments)
            {
            case .success(let values):
                instructions = values
                notes.append(instructionPass.description)
            case .failure(let error):
                instructionsMissing = true
                notes.append("WARNING: instructions not measured (\(error)); gating on allocation and ARC counts only")
            }
        }
        let records = cases.map { benchmarkCase in
            var values: [String: Double] = [:]
            if let count = counts[benchmarkCase.name] {
                values = [
                    "mallocs_per_op": count.mallocs, "retains_per_op": count.retains, "releases_per_op": count.releases,
                ]
            }
            values["instructions_per_op"] = benchmarkCase.countsInstructions ? instructions?[benchmarkCase.name] : nil
            return GateRecord(
                benchmark: benchmarkCase.benchmark, strategy: benchmarkCase.strategy, message: benchmarkCase.message,
                width: benchmarkCase.width, responders: benchmarkCase.responders, values: values)
        }
        return (records, notes, instructionsMissing)
    }

    /// Median ns per delivery and its ratio to the reference's, for the report only.
    public func timeRatios() -> String {
        guard let timeReference else { return "" }
        var configuration = RunConfiguration()
        configuration.samples = 5
        configuration.rounds = 1
        configuration.sampleTimeMilliseconds = 0.5
        configuration.warmUpMilliseconds = 1
        configuration.countingIterations = 0
        let references = cases.map(timeReference)
        let measured = Runner(configuration: configuration).measure(cases + references)
        var lines = [
            "time (informational, never gated): ns per delivery, median of 5 samples, and × the reference (\(references.first?.strategy ?? "-"))"
        ]
        for (index, benchmarkCase) in cases.enumerated() {
            let deliveries = Double(max(benchmarkCase.deliveriesPerOperation, 1))
            let perDelivery = measured[index].nanosecondsPerOperation.median / deliveries
            let reference = measured[cases.count + index].nanosecondsPerOperation.median / deliveries
            lines.append(
                "  \(benchmarkCase.name)  \(Report.fixed(perDelivery)) ns  \(Report.fixed(perDelivery / max(reference, 0.001), decimals: 1))×"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Commands

    /// `check`: measures, compares with `baseline` under `thresholds`, prints
    /// the table and verdicts, writes the Markdown summary (and appends it to
    /// `$GITHUB_STEP_SUMMARY`) and the measured records.
    ///
    /// - Returns: The status; the caller exits with its raw value.
    public func check(
        baseline: [GateRecord], thresholds: GateThresholds, countsOnly: Bool, progress: Bool, showsTime: Bool,
        summaryPath: String, recordsPath: String?, benchmarkJSONPath: String? = nil, reportOnly: String? = nil
    ) -> GateStatus {
        var (records, notes, instructionsMissing) = measure(countsOnly: countsOnly, progress: progress)
        let names = Set(cases.map(\.name))
        let comparison = GateComparison(
            baseline: baseline.filter { names.contains($0.name) }, current: records, thresholds: thresholds)
        var status = comparison.status(newCasesAreStale: isCI)
        if let reportOnly {
            // A platform without a baseline of its own: nothing to compare with.
            notes.insert("REPORT ONLY: \(reportOnly)", at: 0)
            status = .pass
        } else if isCI && !Counters.areAvailable {
            notes.append(
                "FAILED: CI=true and this build cannot count allocations and ARC calls; a platform that can gate needs them"
            )
            status = .fail
        } else if isCI && instructionsMissing {
            notes.append(
                "FAILED: CI=true and instructions were not measured; install valgrind (or pass --no-instructions on purpose)"
            )
            status = .fail
        }
        if reportOnly == nil && isCI && !comparison.newCases.isEmpty {
            notes.append(
                "CI=true: cases not in the baseline fail the gate until they are recorded with `bench baseline`")
        }
        for text in notes { note(text) }
        print(comparison.table(), terminator: "")
        if showsTime { print(timeRatios(), terminator: "") }
        let summary = comparison.markdown(status: status, notes: notes, reportOnly: reportOnly != nil)
        do {
            try AtomicFile.write(summary, to: summaryPath)
            if let recordsPath { try AtomicFile.write(GateRecord.render(records), to: recordsPath) }
            if let benchmarkJSONPath {
                try AtomicFile.write(GateRecord.benchmarkActionJSON(records), to: benchmarkJSONPath)
            }
            if let jobSummary = environment["GITHUB_STEP_SUMMARY"], !jobSummary.isEmpty,
                let handle = FileHandle(forWritingAtPath: jobSummary)
            {
                handle.seekToEndOfFile()
                handle.write(Data(summary.utf8))
                try? handle.close()
            }
        } catch {
            note("could not write the summary: \(error)")
        }
        for verdict in comparison.regressions {
            print(
                "REGRESSION \(verdict.caseName) \(verdict.metric): \(GateComparison.format(verdict.baseline ?? 0)) -> \(GateComparison.format(verdict.current ?? 0)) (allowed \(GateComparison.format(verdict.allowed ?? 0)))"
            )
        }
        for name in comparison.missing { print("MISSING \(name): in the baseline but not measured") }
        for verdict in comparison.improvements {
            print(
                "IMPROVEMENT \(verdict.caseName) \(verdict.metric): \(GateComparison.format(verdict.baseline ?? 0)) -> \(GateComparison.format(verdict.current ?? 0)) (beyond the tolerance of \(GateComparison.format(verdict.tolerance ?? 0)))"
            )
        }
        if let reportOnly {
            print("gate: REPORT ONLY (\(records.count) cases measured; \(reportOnly))")
            return status
        }
        for name in comparison.newCases { print("NEW \(name): not in the baseline") }
        switch status {
        case .pass:
            print("gate: PASS")
        case .fail:
            print(
                "gate: FAIL (\(comparison.regressions.count) regressions, \(comparison.missing.count) missing\(isCI && instructionsMissing ? ", instructions not measured" : ""))"
            )
        case .staleBaseline:
            print(
                "gate: STALE BASELINE (\(comparison.improvements.count) improvements beyond tolerance, \(isCI ? comparison.newCases.count : 0) new cases): review the change, then run `swift run -c release bench baseline` and commit the baseline"
            )
        }
        return status
    }

    /// `baseline`: measures and writes the records to `path`. With `merging`,
    /// the records replace those of the same cases in the existing file and
    /// the others are kept (re-recording a filtered selection).
    ///
    /// - Returns: The number of records measured.
    public func recordBaseline(to path: String, merging existing: [GateRecord]?, countsOnly: Bool, progress: Bool)
        throws -> Int
    {
        let (records, notes, _) = measure(countsOnly: countsOnly, progress: progress)
        for text in notes { note(text) }
        guard records.contains(where: { !$0.values.isEmpty }) else { throw NothingMeasured() }
        var all = records
        if let existing {
            let measured = Set(records.map(\.name))
            let kept = existing.filter { !measured.contains($0.name) }
            let order = Dictionary(existing.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            all = (kept + records).sorted { (order[$0.name] ?? Int.max) < (order[$1.name] ?? Int.max) }
        }
        try AtomicFile.write(GateRecord.render(all), to: path)
        return records.count
    }

    /// `baseline` measured nothing: no counters and no instructions.
    public struct NothingMeasured: Error, CustomStringConvertible {
        public var description: String {
            "nothing was measured (the counters are compiled out and instructions were not counted); no baseline written"
        }
    }

    private func note(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }
}
