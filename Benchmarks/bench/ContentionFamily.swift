import Dispatch
import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// The `contention` scenario: `ConcurrentMultiplexer` at width 64 dispatching
/// from 1 or 2 threads, with or without a third thread adding and removing a
/// target all the while. ns per operation is wall time per message over all
/// dispatching threads, so `deliveries_per_second` is the throughput. Its
/// width is its own: it runs whatever widths are selected.
enum ContentionFamily: BenchmarkFamily {
    static let guidePart: (part: GuidePart, benchmark: String)? = (.contention, "contention")
    static let contenders = [DispatchStrategy.concurrent.rawValue]
    static let width = 64

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return [(1, false), (2, false), (1, true), (2, true)].map { dispatchers, mutating in
            let label = "\(dispatchers)dispatcher\(dispatchers == 1 ? "" : "s")\(mutating ? "+mutator" : "")"
            let id = CaseID(benchmark: "contention", strategy: DispatchStrategy.concurrent.rawValue, message: label, width: width, responders: width)
            return BenchmarkCase(id, deliveriesPerOperation: width) { body(dispatchers: dispatchers, mutating: mutating) }
        }
    }

    static let charts = [
        ChartSpec(file: "contention", kind: "bars", title: "ConcurrentMultiplexer throughput under contention",
                  parameters: ["benchmark": "contention", "y": "deliveries_per_second", "scale": "1e-6",
                               "ylabel": "million deliveries per second (all threads)",
                               "xlabel": "dispatching threads (+ a thread adding and removing a target)"]),
    ]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let cells = rows.filter { $0.benchmark == "contention" }
            .map { "\($0.message) \(SummaryTable.nanoseconds($0.nanosecondsPerDelivery))" }
        return cells.isEmpty ? [] : ["contention (concurrent, width \(width)), ns per delivery: " + cells.joined(separator: ", ")]
    }

    /// `ScrollView` is not `Sendable`; the quiet targets never touch it.
    struct SharedView: @unchecked Sendable {
        let view = ScrollView()
    }

    static func body(dispatchers: Int, mutating: Bool) -> (Int) -> Void {
        // Shared between threads although `any ScrollViewDelegate` is not `Sendable`: the quiet targets are safe to
        // call from any thread, which the schema's target type cannot say.
        nonisolated(unsafe) let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()
        for _ in 0..<width { multiplexer.add(QuietTarget()) }
        let shared = SharedView()
        return { iterations in
            // The dispatchers still running: the mutator stops when all are done.
            let running = DispatchGroup()
            for _ in 0..<dispatchers { running.enter() }
            let share = max(1, iterations / dispatchers)
            DispatchQueue.concurrentPerform(iterations: dispatchers + (mutating ? 1 : 0)) { worker in
                if worker < dispatchers {
                    for _ in 0..<share { multiplexer.scrollViewDidScroll(shared.view) }
                    running.leave()
                } else {
                    repeat {
                        let transient = QuietTarget()
                        multiplexer.add(transient)
                        multiplexer.remove(transient)
                    } while running.wait(timeout: .now()) == .timedOut
                }
            }
        }
    }
}
