import Foundation

/// The gate's instruction count: one process under `valgrind --tool=callgrind`
/// runs every case, dumping callgrind's counts around each run; the parent
/// reads the dumps and turns them into instructions per operation.
///
/// Each case runs `longIterations` times to warm up, then `repeats` times
/// `shortIterations` and `longIterations` operations, with a dump after each
/// run. A dump holds only the instructions since the previous one, so one
/// estimate is (long − short) ÷ (longIterations − shortIterations): process
/// start-up, set-up and the requests themselves cancel out. The result is the
/// median of the estimates, so a one-off cost (a lazy initialization, a
/// buffer growing) that lands in one window cannot move it.
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
        for benchmarkCase in cases {
            // Every label is made before the first dump: building one inside a
            // measured window would count it in that window only (the first
            // version of the gate did, adding 69 instructions per operation
            // to most cases).
            let labels = (0..<repeats).map { self.labels(of: benchmarkCase.name, repeat: $0) }
            let body = benchmarkCase.setUp()
            body(longIterations)
            Callgrind.dump(Self.warmUpLabel)
            for label in labels {
                body(shortIterations)
                Callgrind.dump(label.short)
                body(longIterations)
                Callgrind.dump(label.long)
            }
        }
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
                    throw EstimateError(description: "\(name): \(long) instructions for \(longIterations) operations, \(short) for \(shortIterations)")
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
        Callgrind.runChild(arguments, options: ["--dump-instr=no", "--dump-line=no"]) { directory throws(EstimateError) in
            let totals: [String: UInt64]
            do { totals = try Callgrind.totals(inDirectory: directory, prefix: "callgrind.out") } catch {
                throw EstimateError(description: "cannot read callgrind's dumps: \(error)")
            }
            return try instructionsPerOperation(of: caseNames, totals: totals)
        }
    }
}
