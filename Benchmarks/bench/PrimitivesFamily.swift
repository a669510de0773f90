import FanoutBenchFloor
import FanoutMicrobench

/// `primitives`: what the machine's primitives cost, the units the strategies' costs are made of: one atomic
/// read-modify-write pair where a dispatch pays it (what a retain and its release add to the C loop over function
/// pointers at width 1: `cFunctionPointerAtomicPair` against `cFunctionPointer`, published figures both), one
/// indirect call, and one load that misses every cache (a dependent chain over 256 MiB, which misses the TLB too),
/// the last two measured here in C. They differ several times over between the CPUs the suite runs on (an atomic pair
/// about 2 ns on one VM, 20 on another), so the run's summary opens with them and the decision table's caveats name
/// them.
enum PrimitivesFamily: BenchmarkFamily {
    static let contenders = ["indirectCall", "missingLoad"]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return [
            primitive("indirectCall") { iterations in bench_floor_indirect_calls(iterations) },
            BenchmarkCase(id("missingLoad"), deliveriesPerOperation: 1, isCounted: false) {
                let chain = bench_floor_chain(256 << 20)!
                var at = chain
                return { iterations in
                    at = bench_floor_chase(at, iterations)!
                    blackHole(at)
                    withExtendedLifetime(chain) {}
                }
            },
        ]
    }

    static func id(_ name: String) -> CaseID {
        CaseID(benchmark: "primitives", strategy: name, message: "one", width: 1, responders: 1)
    }

    static func primitive(_ name: String, _ body: @escaping (Int) -> Void) -> BenchmarkCase {
        BenchmarkCase(id(name), deliveriesPerOperation: 1, isCounted: false) { body }
    }

    /// The summary's line: each primitive's cost on this run's CPU.
    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let words = [
            ("atomicPair", "an atomic read-modify-write pair in a dispatch"), ("indirectCall", "an indirect call"),
            ("missingLoad", "a load that misses every cache"),
        ]
        let costs = words.compactMap { name, words in primitiveCost(name, in: rows).map { "\(words) \(SummaryTable.nanoseconds($0)) ns" } }
        guard !costs.isEmpty, let cpu = rows.first?.metadata.cpu else { return [] }
        return ["this CPU's primitives (\(cpu)): " + costs.joined(separator: ", ")]
    }

    /// A primitive's cost in the rows, ns: the atomic pair from the C floors' published figures at width 1.
    static func primitiveCost(_ name: String, in rows: [ResultRow]) -> Double? {
        if name == "atomicPair" {
            func floor(_ strategy: String) -> Double? {
                rows.first { $0.id == DispatchFamily.id(strategy, .didScroll, width: 1, responders: 1) }?
                    .nanosecondsPerDelivery
            }
            guard let paying = floor("cFunctionPointerAtomicPair"), let plain = floor("cFunctionPointer") else {
                return nil
            }
            return max(paying - plain, 0)
        }
        return rows.first { $0.benchmark == "primitives" && $0.strategy == name }?.nanosecondsPerDelivery
    }
}
