import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// `memory`: bytes the heap grows by per registered target, after adding
/// 10 000 targets made beforehand (`heap_bytes_per_unit`); the timed operation
/// builds that multiplexer.
enum MemoryFamily: BenchmarkFamily {
    static let contenders = DispatchStrategy.allCases.map(\.rawValue)
    static let targets = 10_000

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return DispatchStrategy.allCases.map { strategy in
            let count = targets
            let id = CaseID(benchmark: "memory", strategy: strategy.rawValue, message: "add", width: count, responders: count)
            return BenchmarkCase(id, deliveriesPerOperation: count, heapGrowthPerUnit: {
                let targets = makeTargets(width: count, responders: count)
                let before = Counters.heapInUse
                let multiplexer = identity(strategy.makeMultiplexer())
                for target in targets { multiplexer.add(target) }
                let after = Counters.heapInUse
                withExtendedLifetime((targets, multiplexer)) {}
                return (Double(after) - Double(before)) / Double(count)
            }) {
                let targets = makeTargets(width: count, responders: count)
                return { iterations in
                    for _ in 0..<iterations {
                        let multiplexer = identity(strategy.makeMultiplexer())
                        for target in targets { multiplexer.add(target) }
                        blackHole(multiplexer.count)
                    }
                }
            }
        }
    }

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let cells = rows.filter { $0.benchmark == "memory" }.compactMap { row in
            row.heapBytesPerUnit.map { "\(row.strategy) \(Int($0.rounded()))" }
        }
        return cells.isEmpty ? [] : ["memory, heap bytes per registered target: " + cells.joined(separator: ", ")]
    }
}
