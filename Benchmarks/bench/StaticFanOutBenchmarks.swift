import Fanout
import ScrollViewKit
import Microbench

/// The compile-time fan-out baseline: `StaticMultiplexer` over a parameter
/// pack of the two concrete target types, at the widths where writing the
/// pack out is practical (1 … 16). Rows of `dispatch` with `strategy` =
/// `parameterPack`.
enum StaticFanOutBenchmarks {
    static let name = "parameterPack"
    static let widths = [1, 2, 4, 8, 16]

    static func cases(widths selected: [Int], messages: [ScrollViewMessage]) -> [BenchmarkCase] {
        messages.flatMap { message in
            widths.filter(selected.contains).map { width in
                BenchmarkCase(
                    benchmark: "dispatch", strategy: name, message: "\(message)", width: width, responders: width,
                    deliveriesPerOperation: width
                ) { body(sending: message, width: width) }
            }
        }
    }

    static func body(sending message: ScrollViewMessage, width: Int) -> (Int) -> Void {
        let a = { TallyTarget(responds: true) }, b = { OffsetTarget(responds: true) }
        switch width {
        case 1: return loop(StaticMultiplexer(a()), message)
        case 2: return loop(StaticMultiplexer(a(), b()), message)
        case 4: return loop(StaticMultiplexer(a(), b(), a(), b()), message)
        case 8: return loop(StaticMultiplexer(a(), b(), a(), b(), a(), b(), a(), b()), message)
        default:
            return loop(
                StaticMultiplexer(a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b()),
                message)
        }
    }

    /// Always inlined into the concrete call sites above, so that each width's
    /// loop is specialized for its concrete pack.
    @inline(__always)
    static func loop<each Target: ScrollViewDelegate>(
        _ fanout: StaticMultiplexer<repeat each Target>, _ message: ScrollViewMessage
    ) -> (Int) -> Void {
        let view = ScrollView()
        switch message {
        case .didScroll:
            return { iterations in for _ in 0..<iterations { fanout.scrollViewDidScroll(view) } }
        case .didEndDragging:
            return { iterations in
                for _ in 0..<iterations { fanout.scrollViewDidEndDragging(view, willDecelerate: true) }
            }
        case .shouldScrollToTop:
            return { iterations in
                var allowed = true
                for _ in 0..<iterations { allowed = fanout.scrollViewShouldScrollToTop(view) && allowed }
                blackHole(allowed)
            }
        case .viewForZooming:
            return { iterations in
                var found = 0
                for _ in 0..<iterations where fanout.viewForZooming(in: view) != nil { found += 1 }
                blackHole(found)
            }
        }
    }
}
