import Fanout
import ScrollViewKit
import Microbench

/// Scenarios beyond one dispatch; the CSV `benchmark` is the scenario's name.
enum ScenarioBenchmarks {
    static let names = ["setup", "endToEnd", "chain", "memory"]
    static let memoryTargets = 10_000
    static let chainDepths = [1, 2, 4, 8, 16]

    static func cases(widths: [Int], strategies: [DispatchStrategy] = DispatchStrategy.allCases) -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for strategy in strategies {
            for width in widths {
                cases.append(setUpCase(strategy, width: width, removing: false))
                cases.append(setUpCase(strategy, width: width, removing: true))
                cases.append(endToEndCase(strategy, width: width))
            }
        }
        for strategy in strategies { cases.append(memoryCase(strategy)) }
        for depth in chainDepths where widths.contains(depth) || widths.count > 3 {
            cases.append(chainCase(depth: depth))
        }
        return cases
    }

    /// `setup`: building a multiplexer of `width` targets (`add`), or building
    /// and tearing it down (`addThenRemove`, removing in registration order);
    /// per-target cost is ns per operation ÷ width.
    static func setUpCase(_ strategy: DispatchStrategy, width: Int, removing: Bool) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "setup", strategy: strategy.rawValue, message: removing ? "addThenRemove" : "add",
            width: width, responders: width, deliveriesPerOperation: width
        ) {
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

    /// `memory`: bytes the heap grows by per registered target, after adding
    /// 10 000 targets made beforehand (`heap_bytes_per_unit`); the timed
    /// operation builds that multiplexer.
    static func memoryCase(_ strategy: DispatchStrategy) -> BenchmarkCase {
        let count = memoryTargets
        return BenchmarkCase(
            benchmark: "memory", strategy: strategy.rawValue, message: "add", width: count, responders: count,
            deliveriesPerOperation: count,
            heapGrowthPerUnit: {
                let targets = makeTargets(width: count, responders: count)
                let before = Counters.heapInUse
                let multiplexer = identity(strategy.makeMultiplexer())
                for target in targets { multiplexer.add(target) }
                let after = Counters.heapInUse
                withExtendedLifetime((targets, multiplexer)) {}
                return (Double(after) - Double(before)) / Double(count)
            }
        ) {
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

    /// `endToEnd`: `ScrollView.scroll(to:)` with the multiplexer as its
    /// delegate: the real call path, `responds(to:)` check included.
    static func endToEndCase(_ strategy: DispatchStrategy, width: Int) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "endToEnd", strategy: strategy.rawValue, message: "scrollTo", width: width,
            responders: width, deliveriesPerOperation: width
        ) {
            let (multiplexer, targets, _) = makeFilledMultiplexer(.strategy(strategy), width: width, responders: width)
            let view = ScrollView()
            view.delegate = multiplexer
            return { iterations in
                for iteration in 0..<iterations { view.scroll(to: Double(iteration)) }
                withExtendedLifetime((multiplexer, targets)) {}
            }
        }
    }

    /// `chain`: a delegate chain of `depth` links, each handling `didScroll`
    /// and forwarding to its owner (the MELSortingView design); compare with
    /// `dispatch` rows of the same width.
    static func chainCase(depth: Int) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "chain", strategy: "delegateChain", message: "didScroll", width: depth, responders: depth,
            deliveriesPerOperation: depth
        ) {
            var owner: ChainLink?
            for _ in 0..<depth { owner = ChainLink(owner: owner) }
            let head: any ScrollViewDelegate = identity(owner!)
            let view = ScrollView()
            return { iterations in
                for _ in 0..<iterations { head.scrollViewDidScroll(view) }
            }
        }
    }
}

/// One link of a delegate chain: handles the message, then forwards it to
/// its owner, which it retains (the owner outlives its views).
final class ChainLink: ScrollViewDelegate {
    let owner: (any ScrollViewDelegate)?
    var tally = 0

    init(owner: (any ScrollViewDelegate)?) { self.owner = owner }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        tally &+= 1
        owner?.scrollViewDidScroll(scrollView)
    }
}
