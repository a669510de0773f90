import FanoutMicrobenchCounters
import Foundation

/// The gate's instruction count: one process under `valgrind --tool=callgrind`
/// runs every case, counting each run of its body on its own; the parent
/// reads the dumps and turns them into instructions per operation.
///
/// Each case runs `longIterations` times to warm up, then `repeats` times
/// `shortIterations` and `longIterations` operations. A dump just before each
/// run and one just after it (a dump also zeroes callgrind's counts) make a
/// window that holds the run and the same few instructions of the two
/// requests, whatever the loop around it does; one estimate is (long − short)
/// ÷ (longIterations − shortIterations), in which set-up and the requests
/// cancel out. The result is the median of the estimates, so a one-off cost
/// (a lazy initialization, a buffer growing) that lands in one window cannot
/// move it.
///
/// Every pass first measures a body of known length, ``calibration`` (a loop
/// of exactly ``calibrationInstructions`` instructions per operation), and
/// fails unless it reads exactly that: an estimate that drifts from what the
/// code executes cannot go unnoticed. (Without the dump before each run, the
/// window after a long run also held the `for` loop's step to the next
/// labels, about 160 instructions, and every estimate read about 4
/// instructions per operation low.)
public struct InstructionPass: Equatable, Sendable {
    public var shortIterations = 10
    public var longIterations = 50
    public var repeats = 3

    /// The label of the warm-up dumps, which the estimate ignores.
    public static let warmUpLabel = "warm-up"

    public init() {}

    /// The labels of the dumps around repeat `index` of `caseName`.
    public func labels(of caseName: String, repeat index: Int) -> (short: String, long: String) {
        ("\(caseName)#short\(index)", "\(caseName)#long\(index)")
    }

    /// The child's side, run under callgrind: each case set up in turn and
    /// its body run between dumps.
    public func run(_ cases: [BenchmarkCase]) {
        for benchmarkCase in [Self.calibration] + cases {
            // Every label is made before the first dump: building one inside a
            // measured window would count it in that window only (the first
            // version of the gate did, adding 69 instructions per operation
            // to most cases).
            let labels = (0..<repeats).map { self.labels(of: benchmarkCase.name, repeat: $0) }
            let body = benchmarkCase.setUp()
            body(longIterations)
            Callgrind.dump(Self.warmUpLabel)
            for label in labels {
                Self.count(body, iterations: shortIterations, label: label.short)
                Self.count(body, iterations: longIterations, label: label.long)
            }
        }
    }

    /// One counted window: a dump that the estimate ignores (``gapLabel``),
    /// `iterations` operations, a dump labelled `label`. Not inlined, so that
    /// the instructions of this function inside the window are the same for
    /// the short and the long run. (A dump, not `CALLGRIND_ZERO_STATS`: after
    /// a zero request, callgrind 3.19's summary and totals lines disagreed by
    /// a few instructions in a debug build.)
    @inline(never)
    static func count(_ body: (Int) -> Void, iterations: Int, label: String) {
        Callgrind.dump(gapLabel)
        body(iterations)
        Callgrind.dump(label)
    }

    /// The label of the dumps that open each counted window, which the estimate ignores.
    public static let gapLabel = "gap"

    /// The body of known length every pass measures first: a loop of exactly
    /// ``calibrationInstructions`` instructions per operation (plus a fixed
    /// few per run, which cancel out).
    public static var calibration: BenchmarkCase {
        BenchmarkCase(
            benchmark: "calibration", strategy: "spin", message: "spin", width: 1, responders: 1,
            deliveriesPerOperation: 1
        ) {
            { iterations in microbench_spin(UInt64(iterations) * UInt64(calibrationInstructions / 2)) }
        }
    }

    /// Instructions per operation of ``calibration``: 10 turns of a
    /// two-instruction loop.
    public static let calibrationInstructions = 20.0

    /// Whether ``calibration``'s count is exact on this architecture
    /// (x86-64, arm64); elsewhere the pass is not calibrated.
    public static var isCalibrated: Bool { microbench_spin_is_exact() != 0 }

    /// ``calibration``'s estimate from the dump totals, checked against its
    /// known count; `nil` where the count is not exact.
    ///
    /// - Throws: ``EstimateError`` when the estimate differs from
    ///   ``calibrationInstructions`` by more than rounding.
    public func checkCalibration(totals: [String: UInt64]) throws(EstimateError) -> Double? {
        guard Self.isCalibrated else { return nil }
        let name = Self.calibration.name
        guard let measured = try instructionsPerOperation(of: [name], totals: totals)[name] else { return nil }
        guard abs(measured - Self.calibrationInstructions) < 0.01 else {
            throw EstimateError(
                description: "the instruction pass is off: it read \(measured) instructions per operation "
                    + "for a body of exactly \(Self.calibrationInstructions)")
        }
        return measured
    }

    /// Why instructions could not be estimated.
    public struct EstimateError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Instructions per operation for each of `caseNames`, from the dump
    /// totals by label: the median of the `repeats` estimates, rounded to
    /// hundredths.
    ///
    /// - Throws: ``EstimateError`` naming the case whose dump is missing, or
    ///   whose long run counted fewer instructions than its short one.
    public func instructionsPerOperation(
        of caseNames: [String], totals: [String: UInt64]
    ) throws(EstimateError) -> [String: Double] {
        let span = Double(longIterations - shortIterations)
        var result: [String: Double] = [:]
        for name in caseNames {
            var estimates: [Double] = []
            for index in 0..<repeats {
                let labels = labels(of: name, repeat: index)
                guard let short = totals[labels.short], let long = totals[labels.long] else {
                    throw EstimateError(description: "callgrind wrote no dump for \(name) (repeat \(index))")
                }
                guard long >= short else {
                    throw EstimateError(
                        description:
                            "\(name): \(long) instructions for \(longIterations) operations, \(short) for \(shortIterations)"
                    )
                }
                estimates.append(Double(long - short) / span)
            }
            result[name] = (estimates.sorted()[estimates.count / 2] * 100).rounded() / 100
        }
        return result
    }

    /// A note for the report: how the figures were made.
    public var description: String {
        "instructions per operation counted by callgrind: median of \(repeats) estimates of "
            + "(\(longIterations) − \(shortIterations) operations) per case"
            + (Self.isCalibrated
                ? "; a body of exactly \(Self.calibrationInstructions) per operation read exactly that" : "")
    }

    /// The parent's side: runs this executable again, with `arguments` (which
    /// make it call ``run(_:)``), under callgrind, and estimates every case.
    ///
    /// The child runs a copy with its debug info stripped (valgrind 3.19
    /// cannot read the debug info Swift 6.3 emits) and with
    /// `SWIFT_DETERMINISTIC_HASHING=1`, so that dictionary probing is the same
    /// in every run.
    ///
    /// - Returns: Instructions per operation by case name, or why they could
    ///   not be counted (valgrind missing, the binary built without
    ///   `valgrind/callgrind.h`, the child failing).
    public func measure(caseNames: [String], arguments: [String]) -> Result<[String: Double], EstimateError> {
        Callgrind.runChild(arguments, options: ["--dump-instr=no", "--dump-line=no"]) {
            directory throws(EstimateError) in
            let totals: [String: UInt64]
            do { totals = try Callgrind.totals(inDirectory: directory, prefix: "callgrind.out") } catch {
                throw EstimateError(description: "cannot read callgrind's dumps: \(error)")
            }
            _ = try checkCalibration(totals: totals)
            return try instructionsPerOperation(of: caseNames, totals: totals)
        }
    }
}
