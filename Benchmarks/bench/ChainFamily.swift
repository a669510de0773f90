import FanoutMicrobench
import FanoutScrollViewKit

/// `chain`: a delegate chain of `depth` links, each handling `didScroll` and
/// forwarding to its owner (the MELSortingView design); compare with
/// `dispatch` rows of the same width.
enum ChainFamily: BenchmarkFamily {
    static let contenders = ["delegateChain"]
    static let depths = [1, 2, 4, 8, 16]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return depths.filter(selection.widths.contains).map { depth in
            let id = CaseID(benchmark: "chain", strategy: "delegateChain", message: "didScroll", width: depth, responders: depth)
            return BenchmarkCase(id, deliveriesPerOperation: depth) {
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

    static let charts = [
        ChartSpec(file: "chain-vs-multiplexer", kind: "overlay", title: "Delegate chain vs one multiplexer, didScroll",
                  parameters: ["benchmark": "chain", "against": "dispatch", "message": "didScroll", "y": "ns_per_op_median"]),
    ]
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
