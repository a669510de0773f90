import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

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
                + (selection.widths.contains(16) ? [false, true].map { mutationCase(strategy, width: 16, inDispatch: $0) } : [])
        }
    }

    /// Each strategy's multiplexer of 16 targets built and torn down, and changed outside and inside a dispatch
    /// (registration once became 5x slower unseen while only dispatch was gated).
    static var gateCases: [BenchmarkCase] {
        DispatchStrategy.allCases.map { setUpCase($0, width: 16, removing: true) }
            + DispatchStrategy.allCases.flatMap { strategy in
                [false, true].map { mutationCase(strategy, width: 16, inDispatch: $0) }
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

    /// `setup/<strategy>/mutateInDispatch/16/16` and `…/mutateOutside/16/16`: a dispatch of `didScroll` to
    /// `width` targets, with one add and one remove of a further target either made by the first target's
    /// callback, during the dispatch, or made before it. The difference is what a mutation during a dispatch
    /// costs over the same mutation outside one: the single-threaded strategies retire the buffer the dispatch
    /// iterates (`existentialArray`, `lifetimeBound`: a copy of the registrations, freed when the dispatch ends)
    /// or copy the list the dispatch holds (the closure strategies), and announce the change after it.
    static func mutationCase(_ strategy: DispatchStrategy, width: Int, inDispatch: Bool) -> BenchmarkCase {
        let id = CaseID(
            benchmark: "setup", strategy: strategy.rawValue, message: inDispatch ? "mutateInDispatch" : "mutateOutside",
            width: width, responders: width)
        return BenchmarkCase(id, deliveriesPerOperation: width) {
            let multiplexer = strategy.makeMultiplexer()
            let mutator = MutatingTarget(), transient = QuietTarget()
            var targets = makeTargets(width: width - 1, responders: width - 1)
            targets.insert(mutator, at: 0)
            for target in targets { multiplexer.add(target) }
            let mutate = { [unowned multiplexer] in
                multiplexer.add(transient)
                multiplexer.remove(transient)
            }
            let view = ScrollView()
            if inDispatch { mutator.onScroll = mutate }
            return { iterations in
                for _ in 0..<iterations {
                    if !inDispatch { mutate() }
                    multiplexer.scrollViewDidScroll(view)
                }
                withExtendedLifetime((targets, transient)) {}
            }
        }
    }

    static let charts = [ChartSpec(file: "setup-cost", kind: "setup", title: "Setup cost per target", parameters: ["benchmark": "setup"])]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let width = SummaryTable.headlineWidth(selection.widths) ?? 1
        let cells = rows.filter { $0.benchmark == "setup" && $0.message == "add" && $0.width == width }
            .map { "\($0.strategy) \(SummaryTable.nanoseconds($0.nanosecondsPerDelivery))" }
        return cells.isEmpty ? [] : ["setup, ns per add at \(width) targets: " + cells.joined(separator: ", ")]
    }
}

/// A target whose `scrollViewDidScroll` runs `onScroll`: the mutation of a `mutateInDispatch` case.
final class MutatingTarget: ScrollViewDelegate {
    var onScroll: () -> Void = {}

    func scrollViewDidScroll(_ scrollView: ScrollView) { onScroll() }
}
