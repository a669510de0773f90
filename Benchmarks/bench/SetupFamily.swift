import Fanout
import Microbench
import ScrollViewKit

/// `setup`: building a multiplexer of `width` targets (`add`), or building
/// and tearing it down (`addThenRemove`, removing in registration order); per
/// target cost is ns per operation ÷ width.
enum SetupFamily: BenchmarkFamily {
    static let contenders = DispatchStrategy.allCases.map(\.rawValue)

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return DispatchStrategy.allCases.flatMap { strategy in
            selection.widths.flatMap { width in
                [false, true].map { removing in setUpCase(strategy, width: width, removing: removing) }
            }
        }
    }

    static func setUpCase(_ strategy: DispatchStrategy, width: Int, removing: Bool) -> BenchmarkCase {
        let id = CaseID(
            benchmark: "setup", strategy: strategy.rawValue, message: removing ? "addThenRemove" : "add", width: width,
            responders: width)
        return BenchmarkCase(id, deliveriesPerOperation: width) {
            let targets = makeTargets(width: width, responders: width)
            return { iterations in
                for _ in 0..<iterations {
                    let multiplexer = identity(strategy.makeMultiplexer())
                    for target in targets { multiplexer.add(target) }
                    if removing { for target in targets { multiplexer.remove(target) } }
                    blackHole(multiplexer.count)
                }
            }
        }
    }

    static let charts = [ChartSpec(file: "setup-cost", kind: "setup", title: "Setup cost per target", parameters: ["benchmark": "setup"])]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let width = SummaryTable.shownWidths(selection.widths).dropFirst().first ?? selection.widths.first ?? 1
        let cells = rows.filter { $0.benchmark == "setup" && $0.message == "add" && $0.width == width }
            .map { "\($0.strategy) \(SummaryTable.nanoseconds($0.nanosecondsPerDelivery))" }
        return cells.isEmpty ? [] : ["setup, ns per add at \(width) targets: " + cells.joined(separator: ", ")]
    }
}
