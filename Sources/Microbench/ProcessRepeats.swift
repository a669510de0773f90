import FanoutMicrobenchCounters
import Foundation

/// A run's repeated cases (its dispatch and arity cases) measured again in fresh processes, one after another, each
/// in its own shuffled order, and merged into the run's rows (``ProcessFigure``): what `bench` does after its own pass.
public enum ProcessRepeats {
    /// The merged rows, and what went wrong in a process that failed.
    public struct Outcome: Sendable {
        /// The run's rows, the repeated ones carrying the figure of every process that measured them.
        public var rows: [ResultRow]
        /// One line per process that failed or printed no usable CSV; its cases keep the other processes' values.
        public var failures: [String]
        /// Whether the processes ran with address randomization off, so that process *k* measured the same placement
        /// as process *k* of any other run of this build (``withoutAddressRandomization(_:)``).
        public var placementsFixed = false
        /// Why the processes stopped before the last: more than ``tolerableFailures(of:)`` failed.
        public var stopped: String?
    }

    /// The line a fresh process writes to standard error before each case it sets up, calibrates or times, so that
    /// its run can name the case it was on when it hangs or crashes.
    public static let casePrefix = "case "

    /// How many of `processes` may fail before a run stops: a tenth.
    public static func tolerableFailures(of processes: Int) -> Int { processes / 10 }

    /// How long a process may run: ten times what its work should take (`expected`, in seconds), and at least 30 s.
    public static func deadline(expected: Double) -> Double { max(30, 10 * expected) }

    /// Runs `executable` with `arguments` followed by `--seed k`, for k in 1...`processes` but those `measured`
    /// already holds (a resumed run's), one process at a time, each for at most `deadline` seconds; each prints a
    /// results CSV of the cases it measured. Each case of `rows` named in `repeated` then gets the figure over the rows
    /// the processes printed for it, with its interval (``merge(_:repeats:failures:record:)``, `record` the runs
    /// recorded for this CPU). A process that fails, hangs past its deadline or prints no usable CSV is named (seed,
    /// how it ended, the case it was on, how long it ran) and set aside; when more than a tenth of them fail, no
    /// further process starts.
    ///
    /// - Parameters:
    ///   - started: Called before each process starts, with its seed.
    ///   - finished: Called with the seed and the rows of each process that succeeded, as soon as it ends.
    ///   - failed: Called with the line that names each process that failed, as soon as it ends.
    public static func measure(
        rows: [ResultRow], repeated: Set<String>, processes: Int, executable: String, arguments: [String],
        deadline: Double, measured: [Int: [ResultRow]] = [:], failures earlier: [String] = [], record: RunRecord? = nil,
        started: (_ seed: Int) -> Void = { _ in }, finished: (_ seed: Int, _ rows: [ResultRow]) -> Void = { _, _ in },
        failed: (_ failure: String) -> Void = { _ in }
    ) -> Outcome {
        var processRows = measured
        var failures = earlier
        var stopped: String?
        // Address randomization off for the processes, so that each seed's placement is the one measured.
        let placementsFixed = withoutAddressRandomization { isOff in
            for seed in stride(from: 1, through: processes, by: 1) where processRows[seed] == nil {
                guard failures.count <= tolerableFailures(of: processes) else {
                    stopped = "\(failures.count) of \(processes) processes failed, more than a tenth: the run stops"
                    break
                }
                started(seed)
                var environment = ProcessInfo.processInfo.environment
                environment[placementVariable] = String(repeating: "x", count: placement(seed: seed).stack)
                let result = Subprocess.run(
                    executable, arguments + ["--seed", String(seed)], environment: environment, deadline: deadline)
                let name = "process \(seed) of \(processes) (seed \(seed))"
                // Stopped with the run (a signal): not this process's failure; the run exits meanwhile.
                guard !Subprocess.isStopping else { while true { sleep(60) } }
                guard result.status == 0, result.signal == nil else {
                    failures.append(
                        "\(name) \(result.ending) after \(Report.fixed(result.seconds, decimals: 1)) s"
                            + (lastCase(in: result.standardError).map { ", measuring \($0)" } ?? "")
                            + (result.signal == nil && !result.timedOut ? lastLine(of: result.standardError) : ""))
                    failed(failures.last!)
                    continue
                }
                do throws(CSV.ParseError) {
                    let measuredRows = try CSV.parse(result.standardOutput, file: "\(name)'s output")
                        .filter { repeated.contains($0.name) }
                    processRows[seed] = measuredRows
                    finished(seed, measuredRows)
                } catch {
                    failures.append("\(name) printed no results CSV: \(error.description)")
                    failed(failures.last!)
                }
            }
            return isOff
        }
        var repeats: [String: [ResultRow]] = [:]
        for seed in processRows.keys.sorted() {
            for row in processRows[seed]! { repeats[row.name, default: []].append(row) }
        }
        var outcome = merge(rows, repeats: repeats, failures: failures, record: record)
        outcome.placementsFixed = placementsFixed
        outcome.stopped = stopped
        return outcome
    }

    /// The case a process's standard error says it was on last (its ``casePrefix`` lines).
    static func lastCase(in standardError: String) -> String? {
        standardError.split(separator: "\n").last { $0.hasPrefix(casePrefix) }.map {
            String($0.dropFirst(casePrefix.count))
        }
    }

    /// ": " and the last line of `standardError` that is not a ``casePrefix`` line, if any: why a process exited.
    static func lastLine(of standardError: String) -> String {
        standardError.split(separator: "\n").last { !$0.hasPrefix(casePrefix) }.map { ": \($0)" } ?? ""
    }

    /// Runs `body` with address randomization off for the processes this one starts meanwhile, which inherit the
    /// setting (Linux's `ADDR_NO_RANDOMIZE` personality); passes whether it is off. It is not off where the system
    /// refuses it (a container's seccomp filter may) or has no such setting: each process then draws its own offsets.
    ///
    /// Why: with randomization on, Linux also moves a process's stack by a random multiple of 16 bytes within 8 KiB,
    /// so the offsets ``placement(seed:)`` gives would not be the ones measured; off, process *k* of every run of a
    /// build measures the same addresses.
    static func withoutAddressRandomization<Value>(_ body: (_ isOff: Bool) -> Value) -> Value {
        let wasOff = microbench_set_address_randomization_off(1)
        guard wasOff != -1 else { return body(false) }
        defer { if wasOff == 0 { _ = microbench_set_address_randomization_off(0) } }
        return body(true)
    }

    /// The environment variable whose length moves a process's stack (`placement(seed:)`).
    public static let placementVariable = "FANOUT_BENCH_PLACEMENT"

    /// Where process `seed`'s data lands: how many bytes its environment grows by (which moves its stack, as the
    /// kernel copies the environment onto it) and how many bytes it allocates before measuring (which moves its heap).
    /// A timing can depend on where its stack slots and objects fall within a page (a load that seems to alias a
    /// store 4 KiB away waits for it). So each process is given its own offsets, multiples of 16 below 4 KiB, the
    /// same for the same seed, which hold with address randomization off (``withoutAddressRandomization(_:)``);
    /// the run's own process keeps its own.
    public static func placement(seed: Int) -> (stack: Int, heap: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &* 0x5851_F42D_4C95_7F2D)
        return (16 * Int(generator.next() % 256), 16 * Int(generator.next() % 256))
    }

    /// `rows` with each case that `repeats` names given the figure over the rows the fresh processes measured for it.
    /// The run's own measurement of the case does not count: taken among all the run's other cases, it follows a
    /// history (what the heap holds, what the branch predictors learnt) that differs from run to run, where a fresh
    /// process running the repeated cases in its seed's order measures the same placement every time.
    ///
    /// Each merged figure carries its interval (``RerunInterval``): the spread of its processes' time blocks (the
    /// processes in `repeats` are in the order they ran) and, when `record` holds runs of this CPU model, how far
    /// those runs and the case moved between them; and its drift over the run.
    public static func merge(
        _ rows: [ResultRow], repeats: [String: [ResultRow]], failures: [String] = [], record: RunRecord? = nil
    ) -> Outcome {
        let merged = rows.map { row -> ResultRow in
            guard let measured = repeats[row.name], !measured.isEmpty else { return row }
            let values = measured.map(\.nanosecondsPerOperationMedian)
            let figure = ProcessFigure(values, deliveries: row.deliveriesPerOperation)
            let kept = measured.indices.filter { !figure.slowed.contains($0) }
            let nearest = kept.min {
                abs(measured[$0].nanosecondsPerOperationMedian - figure.figure)
                    < abs(measured[$1].nanosecondsPerOperationMedian - figure.figure)
            }!
            var merged = row.merged(figure, representative: measured[nearest])
            let blocks = RerunInterval.blockFigures(values, deliveries: row.deliveriesPerOperation)
            let interval = RerunInterval(
                within: RerunInterval.within(blocks: blocks, figure: figure.figure),
                between: record?.spread(of: row.name) ?? 0, runLevel: record?.runLevel ?? 0, runs: record?.runs ?? 0)
            merged.interval = interval.halfWidth
            merged.intervalRuns = interval.runs
            merged.drift = RerunInterval.drift(blocks: blocks)
            return merged
        }
        return Outcome(rows: merged, failures: failures)
    }

}

/// A generator of the same numbers for the same seed (SplitMix64), so that a process's shuffled order can be told
/// again from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
