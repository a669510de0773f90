import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// Message forwarding: `SelectorDictionaryMultiplexer.forward(_:arguments:)`,
/// a message named at run time with `[Any]` arguments, the Swift counterpart
/// of `forwardInvocation:`. Compare with the typed `dispatch` rows of
/// `selectorDictionary` and with `objcForwardInvocation`, in the same run.
///
/// - `forward/selectorDictionary`: the five messages, every width, dense and
///   sparse. Each message builds its arguments array, as an `NSInvocation` is
///   built per message, and `forward` allocates the answers array.
/// - `forward/argumentsArray`: building the arguments array alone, so that the
///   allocation it makes can be told from `forward`'s own.
/// - `forwardLookup/selectorDictionary/of4` and `…/of64`: one message to one
///   target, in the 4-message `ScrollViewSchema` and in the 64-message
///   `WideSchema`, selectors of equal length: the lookup does not grow with
///   the number of messages.
enum ForwardFamily: BenchmarkFamily {
    static let guidePart: (part: GuidePart, benchmark: String)? = (.forwarding, "forward")
    static let contenders = ["selectorDictionary", "argumentsArray"]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for message in selection.messages {
            for width in selection.widths {
                for responders in DispatchFamily.responderCounts(width: width) {
                    cases.append(forwardCase(message, width: width, responders: responders))
                }
            }
            cases.append(argumentsCase(message))
        }
        if selection.includesDidScroll {
            cases += [lookupCase(wide: false), lookupCase(wide: true)]
        }
        return cases
    }

    /// Forwarding by selector × every message × the dispatch gate's widths and densities, the arguments array of
    /// each message, and the lookup in a schema of 4 and of 64 messages.
    static var gateCases: [BenchmarkCase] {
        ScrollViewMessage.allCases.flatMap { message in
            DispatchFamily.gateWidths.flatMap { width in
                DispatchFamily.responderCounts(width: width).map { forwardCase(message, width: width, responders: $0) }
            } + [argumentsCase(message)]
        } + [lookupCase(wide: false), lookupCase(wide: true)]
    }

    static func id(_ strategy: String, _ message: ScrollViewMessage, width: Int, responders: Int) -> CaseID {
        CaseID(benchmark: "forward", strategy: strategy, message: "\(message)", width: width, responders: responders)
    }

    /// `message` forwarded by selector to a `selectorDictionary` multiplexer
    /// of `width` targets, `responders` of which respond. The gate measures
    /// these cases.
    static func forwardCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(id("selectorDictionary", message, width: width, responders: responders), deliveriesPerOperation: responders) {
            let targets = makeTargets(width: width, responders: responders)
            let multiplexer = identity(SelectorDictionaryMultiplexer<ScrollViewSchema>())
            for target in targets { multiplexer.add(target) }
            let send = MessageLoop.body(sending: message, to: ForwardingReceiver(multiplexer: multiplexer))
            return { iterations in withExtendedLifetime(targets) { send(iterations) } }
        }
    }

    /// The arguments array of `message`, built and discarded: what the caller
    /// of `forward` allocates.
    static func argumentsCase(_ message: ScrollViewMessage) -> BenchmarkCase {
        BenchmarkCase(id("argumentsArray", message, width: 1, responders: 1), deliveriesPerOperation: 1) {
            MessageLoop.body(sending: message, to: ForwardingReceiver(multiplexer: nil))
        }
    }

    /// One message to one target by selector, in a schema of 4 or 64 messages.
    static func lookupCase(wide: Bool) -> BenchmarkCase {
        let id = CaseID(benchmark: "forwardLookup", strategy: "selectorDictionary", message: wide ? "of64" : "of4",
                        width: 1, responders: 1)
        return BenchmarkCase(id, deliveriesPerOperation: 1) {
            let view = ScrollView()
            if wide {
                let target = WideTarget(), multiplexer = identity(SelectorDictionaryMultiplexer<WideSchema>())
                multiplexer.add(target)
                return { iterations in
                    for _ in 0..<iterations { blackHole(try! multiplexer.forward("wideSchemaMessage31:", arguments: [view])) }
                    withExtendedLifetime(target) {}
                }
            }
            let target = makeTarget(0, responds: true), multiplexer = identity(SelectorDictionaryMultiplexer<ScrollViewSchema>())
            multiplexer.add(target)
            return { iterations in
                for _ in 0..<iterations { blackHole(try! multiplexer.forward("scrollViewDidScroll:", arguments: [view])) }
                withExtendedLifetime(target) {}
            }
        }
    }

    static let charts = [
        ChartSpec(file: "forward-vs-typed", kind: "overlay",
                  title: "Forwarding by selector vs typed dispatch (selectorDictionary) and forwardInvocation:, didScroll",
                  parameters: ["benchmark": "forward", "against": "dispatch", "message": "didScroll", "y": "ns_per_delivery",
                               "strategies": "selectorDictionary,objcForwardInvocation"]),
    ]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let forwarded = rows.byID("forward"), typed = rows.byID("dispatch")
        let widths = SummaryTable.shownWidths(selection.widths).filter { $0 > 1 }
        guard let width = widths.last,
              let forward = forwarded[id("selectorDictionary", .didScroll, width: width, responders: width)] else { return [] }
        var parts = ["forward didScroll at width \(width): \(SummaryTable.nanoseconds(forward.nanosecondsPerDelivery)) ns per delivery"]
        if let typedRow = typed[DispatchFamily.id("selectorDictionary", .didScroll, width: width, responders: width)] {
            parts.append("\(Report.fixed(forward.nanosecondsPerDelivery / typedRow.nanosecondsPerDelivery, decimals: 1))× typed")
        }
        if let objc = typed[DispatchFamily.id(ObjCPeerFamily.name, .didScroll, width: width, responders: width)] {
            parts.append("\(Report.fixed(objc.nanosecondsPerDelivery / forward.nanosecondsPerDelivery, decimals: 1))× faster than forwardInvocation:")
        }
        if let counts = forward.counts,
           let arguments = forwarded[id("argumentsArray", .didScroll, width: 1, responders: 1)]?.counts {
            parts.append("mallocs/message \(CSV.number(counts.mallocs)), of which the caller's arguments array \(CSV.number(arguments.mallocs))")
        }
        return [parts.joined(separator: ", ")]
    }
}

/// Sends each message by selector with its arguments boxed in an array, or,
/// with no multiplexer, only builds that array.
struct ForwardingReceiver: MessageReceiver {
    let multiplexer: SelectorDictionaryMultiplexer<ScrollViewSchema>?

    @inline(__always)
    func forward(_ selector: String, _ arguments: [Any]) {
        guard let multiplexer else { return blackHole(arguments) }
        blackHole(try! multiplexer.forward(selector, arguments: arguments))
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) { forward("scrollViewDidScroll:", [scrollView]) }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        forward("scrollViewDidEndDragging:willDecelerate:", [scrollView, decelerate])
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        forward("scrollViewShouldScrollToTop:", [scrollView])
        return true
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        forward("viewForZoomingInScrollView:", [scrollView])
        return nil
    }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        forward(
            "scrollViewWillEndDragging:withVelocity:targetContentOffset:", [scrollView, velocity, targetContentOffset])
    }
}
