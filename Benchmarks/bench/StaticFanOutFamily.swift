import Fanout
import Microbench
import ScrollViewKit

/// Compile-time fan-out: the behaviours' types known where the group is built.
/// Rows of `dispatch`, widths 1 … 16, every message:
///
/// - `staticComposition`: a ``StaticComposition`` called through
///   `any ScrollViewDelegate`, as a `ScrollView` calls its delegate (dense and
///   sparse, like the dynamic strategies; the gate measures these);
/// - `staticCompositionDirect`: the same group called on its concrete type;
/// - `parameterPack`: `StaticMultiplexer` over a parameter pack (every
///   element sent every message).
enum StaticFanOutFamily: BenchmarkFamily {
    static let contenders = ["staticComposition", "staticCompositionDirect", "parameterPack"]
    static let widths = [1, 2, 4, 8, 16]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        selection.messages.flatMap { message in
            widths.filter(selection.widths.contains).flatMap { width in
                DispatchFamily.responderCounts(width: width).flatMap {
                    [compositionCase(message, width: width, responders: $0), directCase(message, width: width, responders: $0)]
                } + [packCase(message, width: width)]
            }
        }
    }

    /// The group through `any ScrollViewDelegate`. The gate measures these cases.
    static func compositionCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(DispatchFamily.id("staticComposition", message, width: width, responders: responders),
                      deliveriesPerOperation: responders) {
            StaticGroups.make(width: width, responders: responders, ThroughProtocol(message: message))
        }
    }

    /// The group called on its concrete type. The gate measures these cases too.
    static func directCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(DispatchFamily.id("staticCompositionDirect", message, width: width, responders: responders),
                      deliveriesPerOperation: responders) {
            StaticGroups.make(width: width, responders: responders, Direct(message: message))
        }
    }

    static func packCase(_ message: ScrollViewMessage, width: Int) -> BenchmarkCase {
        BenchmarkCase(DispatchFamily.id("parameterPack", message, width: width, responders: width), deliveriesPerOperation: width) {
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
}

extension StaticComposition: MessageReceiver where Schema == ScrollViewSchema {}

/// Groups of the two target types, each width a type of its own, built by
/// appending pairs; one in every `width / responders` targets responds, as in
/// the dynamic cases. The group is handed, concretely typed, to a visitor.
enum StaticGroups {
    static func make<Visitor: GroupVisitor>(width: Int, responders: Int, _ visitor: Visitor) -> (Int) -> Void {
        var index = 0
        let stride = width / max(responders, 1)
        func next<Target: CountingTarget>(_ make: (Bool) -> Target) -> Target {
            defer { index += 1 }
            return make(index.isMultiple(of: stride) && index / stride < responders)
        }
        func two<Prefix: StaticElements>(_ prefix: Prefix) -> StaticPair<StaticPair<Prefix, TallyTarget>, OffsetTarget> {
            let first = next(TallyTarget.init(responds:))
            return StaticPair(StaticPair(prefix, first), next(OffsetTarget.init(responds:)))
        }
        let end = StaticEnd<ScrollViewSchema>()
        switch width {
        case 1: return visitor.visit(StaticComposition(StaticPair(end, next(TallyTarget.init(responds:)))))
        case 2: return visitor.visit(StaticComposition(two(end)))
        case 4: return visitor.visit(StaticComposition(two(two(end))))
        case 8: return visitor.visit(StaticComposition(two(two(two(two(end))))))
        default: return visitor.visit(StaticComposition(two(two(two(two(two(two(two(two(end))))))))))
        }
    }
}

/// What to do with a group of a concrete type.
protocol GroupVisitor {
    func visit<Elements: StaticElements>(_ group: StaticComposition<ScrollViewSchema, Elements>) -> (Int) -> Void
}

/// Sends the message to the group through `any ScrollViewDelegate`.
struct ThroughProtocol: GroupVisitor {
    let message: ScrollViewMessage
    func visit<Elements: StaticElements>(_ group: StaticComposition<ScrollViewSchema, Elements>) -> (Int) -> Void {
        MessageLoop.body(sending: message, to: DelegateReceiver(delegate: identity(group as any ScrollViewDelegate)))
    }
}

/// Sends the message to the group on its concrete type. Every call is inlined,
/// so the optimizer would sum a loop's increments into one (a width-1 group
/// measured 0.06 ns per message): each message is preceded by
/// ``clobberMemory()``, an opaque call of a few instructions.
struct Direct: GroupVisitor {
    let message: ScrollViewMessage
    func visit<Elements: StaticElements>(_ group: StaticComposition<ScrollViewSchema, Elements>) -> (Int) -> Void {
        MessageLoop.body(sending: message, to: Clobbering(receiver: identity(group)))
    }
}

/// `receiver`, with memory clobbered before each message.
struct Clobbering<Receiver: MessageReceiver>: MessageReceiver {
    let receiver: Receiver

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        clobberMemory()
        receiver.scrollViewDidScroll(scrollView)
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        clobberMemory()
        receiver.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate)
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        clobberMemory()
        return receiver.scrollViewShouldScrollToTop(scrollView)
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        clobberMemory()
        return receiver.viewForZooming(in: scrollView)
    }
}
