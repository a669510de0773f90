import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// `endToEnd`: `ScrollView.scroll(to:)` with the multiplexer as its delegate:
/// the real call path, `responds(to:)` check included.
enum EndToEndFamily: BenchmarkFamily {
    static let contenders = DispatchStrategy.allCases.map(\.rawValue)

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return DispatchStrategy.allCases.flatMap { strategy in
            selection.widths.map { width in
                let id = CaseID(benchmark: "endToEnd", strategy: strategy.rawValue, message: "scrollTo", width: width, responders: width)
                return BenchmarkCase(id, deliveriesPerOperation: width) {
                    let (multiplexer, lifetime) = makeFilledMultiplexer(.strategy(strategy), width: width, responders: width)
                    let view = ScrollView()
                    view.delegate = multiplexer
                    return { iterations in
                        for iteration in 0..<iterations { view.scroll(to: Double(iteration)) }
                        withExtendedLifetime((multiplexer, lifetime)) {}
                    }
                }
            }
        }
    }
}
