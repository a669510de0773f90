import Microbench
import ScrollViewKit

/// The compile-time fan-out baseline: `StaticMultiplexer` over a parameter
/// pack of the two concrete target types, at the widths where writing the
/// pack out is practical (1 … 16). Rows of `dispatch` with `strategy` =
/// `parameterPack`.
enum StaticFanOutFamily: BenchmarkFamily {
    static let contenders = ["parameterPack"]
    static let widths = [1, 2, 4, 8, 16]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        selection.messages.flatMap { message in
            widths.filter(selection.widths.contains).map { width in
                BenchmarkCase(
                    DispatchFamily.id("parameterPack", message, width: width, responders: width),
                    deliveriesPerOperation: width
                ) { body(sending: message, width: width) }
            }
        }
    }

    static func body(sending message: ScrollViewMessage, width: Int) -> (Int) -> Void {
        let a = { TallyTarget(responds: true) }, b = { OffsetTarget(responds: true) }
        switch width {
        case 1: return MessageLoop.body(sending: message, to: StaticMultiplexer(a()))
        case 2: return MessageLoop.body(sending: message, to: StaticMultiplexer(a(), b()))
        case 4: return MessageLoop.body(sending: message, to: StaticMultiplexer(a(), b(), a(), b()))
        case 8: return MessageLoop.body(sending: message, to: StaticMultiplexer(a(), b(), a(), b(), a(), b(), a(), b()))
        default:
            return MessageLoop.body(
                sending: message,
                to: StaticMultiplexer(a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b(), a(), b()))
        }
    }
}
