import Fanout
import ScrollViewKit
import Microbench

/// The core matrix: every strategy and the floor × every message × every
/// width × dense and sparse responders, as `dispatch` cases.
enum DispatchBenchmarks {
    /// The strategies and baselines this file measures, by CSV name.
    static let strategyNames = Contender.all.map(\.name) + ["floor", "existentialFloor"]

    /// Responder counts measured at `width`: all targets, and one in sixteen
    /// (at least one) when that differs.
    static func responderCounts(width: Int) -> [Int] {
        let sparse = max(1, width / 16)
        return sparse == width ? [width] : [width, sparse]
    }

    static func cases(widths: [Int], messages: [ScrollViewMessage]) -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for contender in Contender.all {
            for message in messages {
                for width in widths {
                    for responders in responderCounts(width: width) {
                        cases.append(dispatchCase(contender, message, width: width, responders: responders))
                    }
                }
            }
        }
        for message in messages {
            for width in widths {
                for responders in responderCounts(width: width) {
                    cases.append(floorCase(message, width: width, responders: responders))
                    cases.append(existentialFloorCase(message, width: width, responders: responders))
                }
            }
        }
        return cases
    }

    static func dispatchCase(
        _ contender: Contender, _ message: ScrollViewMessage, width: Int, responders: Int
    ) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "dispatch", strategy: contender.name, message: "\(message)", width: width,
            responders: responders, deliveriesPerOperation: responders
        ) {
            let (multiplexer, targets, owner) = makeFilledMultiplexer(contender, width: width, responders: responders)
            let send = body(sending: message, to: multiplexer)
            return { iterations in withExtendedLifetime(targets) { withExtendedLifetime(owner) { send(iterations) } } }
        }
    }

    /// The loop that sends `message` through the `ScrollViewMultiplexer`
    /// interface `iterations` times.
    static func body(sending message: ScrollViewMessage, to multiplexer: any ScrollViewMultiplexer) -> (Int) -> Void {
        let view = ScrollView()
        switch message {
        case .didScroll:
            return { iterations in
                for _ in 0..<iterations { multiplexer.scrollViewDidScroll(view) }
            }
        case .didEndDragging:
            return { iterations in
                for _ in 0..<iterations { multiplexer.scrollViewDidEndDragging(view, willDecelerate: true) }
            }
        case .shouldScrollToTop:
            return { iterations in
                var allowed = true
                for _ in 0..<iterations { allowed = multiplexer.scrollViewShouldScrollToTop(view) && allowed }
                blackHole(allowed)
            }
        case .viewForZooming:
            return { iterations in
                var found = 0
                for _ in 0..<iterations where multiplexer.viewForZooming(in: view) != nil { found += 1 }
                blackHole(found)
            }
        }
    }

    /// The second floor: a hand-written loop over `[any ScrollViewDelegate]`
    /// holding the responders (the same two target types as the multiplexers),
    /// with no multiplexer: what a protocol-existential call costs by itself.
    static func existentialFloorCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "dispatch", strategy: "existentialFloor", message: "\(message)", width: width,
            responders: responders, deliveriesPerOperation: responders
        ) {
            let targets = identity((0..<responders).map { makeTarget($0, responds: true) })
            let view = ScrollView()
            switch message {
            case .didScroll:
                return { iterations in
                    let local = targets
                    for _ in 0..<iterations { for target in local { target.scrollViewDidScroll(view) } }
                }
            case .didEndDragging:
                return { iterations in
                    let local = targets
                    for _ in 0..<iterations {
                        for target in local { target.scrollViewDidEndDragging(view, willDecelerate: true) }
                    }
                }
            case .shouldScrollToTop:
                return { iterations in
                    let local = targets
                    var allowed = true
                    for _ in 0..<iterations {
                        for target in local { allowed = target.scrollViewShouldScrollToTop(view) && allowed }
                    }
                    blackHole(allowed)
                }
            case .viewForZooming:
                return { iterations in
                    let local = targets
                    var found = 0
                    for _ in 0..<iterations {
                        for target in local where target.viewForZooming(in: view) != nil { found += 1; break }
                    }
                    blackHole(found)
                }
            }
        }
    }

    /// The best possible: a hand-written loop over the responders as a
    /// concrete `final class`, static dispatch, no multiplexer.
    static func floorCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(
            benchmark: "dispatch", strategy: "floor", message: "\(message)", width: width,
            responders: responders, deliveriesPerOperation: responders
        ) {
            let targets = identity((0..<responders).map { _ in FloorTarget() })
            let view = ScrollView()
            switch message {
            case .didScroll:
                return { iterations in
                    for _ in 0..<iterations { for target in targets { target.scrollViewDidScroll(view) } }
                }
            case .didEndDragging:
                return { iterations in
                    for _ in 0..<iterations {
                        for target in targets { target.scrollViewDidEndDragging(view, willDecelerate: true) }
                    }
                }
            case .shouldScrollToTop:
                return { iterations in
                    var allowed = true
                    for _ in 0..<iterations {
                        for target in targets { allowed = target.scrollViewShouldScrollToTop(view) && allowed }
                    }
                    blackHole(allowed)
                }
            case .viewForZooming:
                return { iterations in
                    var found = 0
                    for _ in 0..<iterations {
                        for target in targets where target.viewForZooming(in: view) != nil { found += 1; break }
                    }
                    blackHole(found)
                }
            }
        }
    }
}
