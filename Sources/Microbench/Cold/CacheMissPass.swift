import Foundation

/// Data cache lines a cold operation misses, counted by callgrind's cache
/// simulation: deterministic, unlike the time of one cold operation.
///
/// One process under `valgrind --tool=callgrind --cache-sim=yes` runs every
/// cold case: before each measured operation it sweeps a buffer twice the
/// simulated last-level cache, which empties the simulated caches, zeroes
/// callgrind's counts, runs the operation and dumps. The estimate is the
/// median, over `repeats` operations, of the last-level data misses (reads
/// and writes, `DLmr + DLmw`): with empty caches, the distinct lines the
/// operation touches. The simulation models no hardware prefetcher, and it
/// also counts the lines of type metadata, witness tables and stack that the
/// timed cold cases leave cached (they flush heap blocks only).
public struct CacheMissPass: Sendable {
    public var repeats = 3

    /// The simulated caches: an L1 data cache of 48 KiB, 12-way (that of the
    /// development VM the cold cases were written on, at `da4720b`), and a
    /// last-level cache of 8 MiB, 16-way, 64-byte lines.
    public static let lastLevelBytes = 8 << 20
    public static let valgrindOptions = [
        "--cache-sim=yes", "--D1=49152,12,64", "--I1=32768,8,64", "--LL=\(lastLevelBytes),16,64",
        "--dump-instr=no", "--dump-line=no",
    ]

    public init() {}

    /// The labels of the dumps of `caseName`.
    public func labels(of caseName: String) -> [String] {
        (0..<repeats).map { "\(caseName)#cold\($0)" }
    }

    /// A note for the report: how the figures were made.
    public var description: String {
        "last-level data misses per cold operation, callgrind --cache-sim=yes (D1 48 KiB 12-way, LL 8 MiB 16-way, "
            + "64-byte lines, no prefetcher), caches emptied by a 16 MiB sweep, median of \(repeats)"
    }

    /// The child's side, run under callgrind: every cold case of `cases`.
    public func run(_ cases: [BenchmarkCase]) {
        let sweep = LastLevelSweep(bytes: 2 * Self.lastLevelBytes)
        run(cases, sweep: sweep.run, zero: Callgrind.zero, dump: Callgrind.dump)
    }

    /// ``run(_:)`` with its three effects given: what tests observe. Each
    /// measured operation follows a sweep that empties the caches and a
    /// zeroing of the counts, and precedes a dump under its label; the case's
    /// first operation, which builds what later ones find (type metadata,
    /// lazily made tables), is run once before, unmeasured.
    public func run(_ cases: [BenchmarkCase], sweep: () -> Void, zero: () -> Void, dump: (String) -> Void) {
        for benchmarkCase in cases {
            guard let setUp = benchmarkCase.coldSetUp else { continue }
            let labels = labels(of: benchmarkCase.name)
            let body = setUp()
            body.operation()
            for label in labels {
                sweep()
                zero()
                body.operation()
                dump(label)
            }
        }
    }

    /// The lines an operation missed in the last-level cache, from one dump's
    /// events: reads and writes (`DLmr + DLmw`). A line first written, as a
    /// new stack frame or a freshly stored field, is a miss too.
    public static func lastLevelMisses(_ events: [String: UInt64]) -> UInt64 {
        (events["DLmr"] ?? 0) + (events["DLmw"] ?? 0)
    }

    /// The parent's side: runs this executable with `arguments` (which make it
    /// call ``run(_:)`` for the cases named) under the cache simulation.
    ///
    /// - Returns: Last-level data misses per operation, by case name.
    public func measure(caseNames: [String], arguments: [String]) -> Result<
        [String: Double], InstructionPass.EstimateError
    > {
        Callgrind.runChild(arguments, options: Self.valgrindOptions) {
            directory throws(InstructionPass.EstimateError) in
            var misses: [String: UInt64] = [:]
            do {
                for name in try FileManager.default.contentsOfDirectory(atPath: directory)
                where name.hasPrefix("callgrind.out") {
                    let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                    guard let (label, events) = try Callgrind.parseEvents(text, file: name) else { continue }
                    misses[label] = Self.lastLevelMisses(events)
                }
            } catch {
                throw .init(description: "cannot read callgrind's dumps: \(error)")
            }
            var result: [String: Double] = [:]
            for name in caseNames {
                let counts = labels(of: name).compactMap { misses[$0] }
                guard counts.count == repeats else { throw .init(description: "callgrind wrote no dump for \(name)") }
                result[name] = Double(counts.sorted()[repeats / 2])
            }
            return result
        }
    }
}
