import Fanout
import FanoutStatic
import FanoutMicrobench
import FanoutScrollViewKit

/// Compile-time fan-out: the behaviours' types known where the group is built.
/// Rows of `dispatch`, widths 1 … 16, every message:
///
/// - `staticComposition`: a ``StaticComposition`` held by a type of its own
///   (``ComposedScrollViewDelegate``) called through `any ScrollViewDelegate`,
///   as a `ScrollView` calls its delegate (dense and sparse, like the dynamic
///   strategies; the gate measures these);
/// - `staticCompositionDirect`: the same group called on its concrete type;
/// - `staticCompositionGeneric`: the group itself as the delegate, through its
///   conformance, which is generic over the elements;
/// - `parameterPack`: `StaticMultiplexer` over a parameter pack (every
///   element sent every message).
enum StaticFanOutFamily: BenchmarkFamily {
    static let contenders = ["staticComposition", "staticCompositionDirect", "staticCompositionGeneric", "parameterPack"]
    static let widths = [1, 2, 4, 8, 16]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        selection.messages.flatMap { message in
            widths.filter(selection.widths.contains).flatMap { width in
                DispatchFamily.responderCounts(width: width).flatMap {
                    [compositionCase(message, width: width, responders: $0), directCase(message, width: width, responders: $0),
                     genericCase(message, width: width, responders: $0)]
                } + packCases(message, width: width)
            }
        }
    }

    /// The group held by a type of its own and sent to directly, at every width, and the group itself as the
    /// delegate at 1 and 16: through its generic conformance, slow by design (Swift runs a conditional
    /// conformance's witnesses unspecialized), gated so that it does not become slower unseen.
    static var gateCases: [BenchmarkCase] {
        ScrollViewMessage.allCases.flatMap { message in
            widths.flatMap { width in
                DispatchFamily.responderCounts(width: width).flatMap { responders in
                    [compositionCase(message, width: width, responders: responders),
                     directCase(message, width: width, responders: responders)]
                        + (width == 1 || width == 16 ? [genericCase(message, width: width, responders: responders)] : [])
                }
            }
        }
    }

    /// The group, held by a type of its own, through `any ScrollViewDelegate`.
    /// The gate measures these cases.
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

    /// The group itself through `any ScrollViewDelegate`: its generic
    /// conformance's witnesses deliver through the group's table of closures.
    static func genericCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(DispatchFamily.id("staticCompositionGeneric", message, width: width, responders: responders),
                      deliveriesPerOperation: responders) {
            StaticGroups.make(width: width, responders: responders, ThroughGenericConformance(message: message))
        }
    }

    /// The `parameterPack` case, where the system has the runtime a generic type over a parameter pack needs
    /// (macOS 14, iOS 17); none before.
    static func packCases(_ message: ScrollViewMessage, width: Int) -> [BenchmarkCase] {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return [] }
        return [packCase(message, width: width)]
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
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
        case 1:
            let group = StaticComposition(StaticPair(end, next(TallyTarget.init(responds:))))
            return visitor.visit(group, named: Composed1(composition: group))
        case 2:
            let group = StaticComposition(two(end))
            return visitor.visit(group, named: Composed2(composition: group))
        case 4:
            let group = StaticComposition(two(two(end)))
            return visitor.visit(group, named: Composed4(composition: group))
        case 8:
            let group = StaticComposition(two(two(two(two(end)))))
            return visitor.visit(group, named: Composed8(composition: group))
        default:
            let group = StaticComposition(two(two(two(two(two(two(two(two(end)))))))))
            return visitor.visit(group, named: Composed16(composition: group))
        }
    }
}

// The group of each width as a type of its own: not generic, so its
// conformance's witnesses are specialized for its elements.
typealias Elements1 = StaticPair<StaticEnd<ScrollViewSchema>, TallyTarget>
typealias TwoMore<Prefix: StaticElements> = StaticPair<StaticPair<Prefix, TallyTarget>, OffsetTarget>
typealias Elements2 = TwoMore<StaticEnd<ScrollViewSchema>>
typealias Elements4 = TwoMore<Elements2>
typealias Elements8 = TwoMore<TwoMore<Elements4>>
typealias Elements16 = TwoMore<TwoMore<TwoMore<TwoMore<Elements8>>>>

final class Composed1: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, Elements1>
    init(composition: StaticComposition<ScrollViewSchema, Elements1>) { self.composition = composition }
}
final class Composed2: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, Elements2>
    init(composition: StaticComposition<ScrollViewSchema, Elements2>) { self.composition = composition }
}
final class Composed4: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, Elements4>
    init(composition: StaticComposition<ScrollViewSchema, Elements4>) { self.composition = composition }
}
final class Composed8: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, Elements8>
    init(composition: StaticComposition<ScrollViewSchema, Elements8>) { self.composition = composition }
}
final class Composed16: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, Elements16>
    init(composition: StaticComposition<ScrollViewSchema, Elements16>) { self.composition = composition }
}

/// What to do with a group of a concrete type.
/// `named` is the group held by a type of its own.
protocol GroupVisitor {
    func visit<Elements: StaticElements>(
        _ group: StaticComposition<ScrollViewSchema, Elements>, named: any ScrollViewDelegate
    ) -> (Int) -> Void
}

/// Sends the message through `any ScrollViewDelegate` to the type that holds
/// the group.
struct ThroughProtocol: GroupVisitor {
    let message: ScrollViewMessage
    func visit<Elements: StaticElements>(
        _ group: StaticComposition<ScrollViewSchema, Elements>, named: any ScrollViewDelegate
    ) -> (Int) -> Void {
        MessageLoop.body(sending: message, to: DelegateReceiver(delegate: identity(named)))
    }
}

/// Sends the message through `any ScrollViewDelegate` to the group itself.
struct ThroughGenericConformance: GroupVisitor {
    let message: ScrollViewMessage
    func visit<Elements: StaticElements>(
        _ group: StaticComposition<ScrollViewSchema, Elements>, named: any ScrollViewDelegate
    ) -> (Int) -> Void {
        MessageLoop.body(sending: message, to: DelegateReceiver(delegate: identity(group as any ScrollViewDelegate)))
    }
}

/// Sends the message to the group on its concrete type. Every call is inlined,
/// so the optimizer would sum a loop's increments into one (a width-1 group
/// measured 0.06 ns per message): each message is preceded by
/// ``clobberMemory()``, a compiler barrier that emits no instruction on
/// x86-64, so the group reloads what it reads at every message, as the floor's
/// loop reloads its targets.
struct Direct: GroupVisitor {
    let message: ScrollViewMessage
    func visit<Elements: StaticElements>(
        _ group: StaticComposition<ScrollViewSchema, Elements>, named: any ScrollViewDelegate
    ) -> (Int) -> Void {
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
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        clobberMemory()
        receiver.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
    }
}
