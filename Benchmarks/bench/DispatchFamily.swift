import Fanout
import FanoutMicrobench
import FanoutScrollViewKit
import FanoutGuideGlue

/// The core matrix: every contender and the two floors × every message ×
/// every width × dense and sparse responders, as `dispatch` cases.
enum DispatchFamily: BenchmarkFamily {
    static let guidePart: (part: GuidePart, benchmark: String)? = (.warm, "dispatch")
    static let floors = [
        "floor", "handWrittenLoop", "weakBoxMulticast", "cFunctionPointer", "cFunctionPointerAtomicPair",
    ]
    static let contenders = Contender.all.map(\.name) + floors

    /// The widths the summary and the decision guide publish: those screens have (a few behaviours, the one
    /// nearest 4) beside the smallest and the one nearest 64 (1, 4 and 64 in a full run), and the largest when 4
    /// is not measured (`--quick`: 1, 16 and 256).
    static func publishedWidths(_ selection: Selection) -> [Int] {
        let screen = selection.widths.min { abs($0 - 4) < abs($1 - 4) }
        return Array(Set(SummaryTable.shownWidths(selection.widths) + (screen.map { [$0] } ?? []))).sorted()
    }

    /// A contender at a published width, every target responding: its figure is in the summary, the decision
    /// guide or the README.
    static func isPublished(_ id: CaseID, _ selection: Selection) -> Bool {
        id.benchmark == "dispatch" && id.responders == id.width && publishedWidths(selection).contains(id.width)
    }

    /// Every dispatch case.
    static func isRepeated(_ id: CaseID) -> Bool { id.benchmark == "dispatch" }

    /// The widths the gate counts every contender at.
    static let gateWidths = [1, 16, 256]

    /// Every contender and the two C loops × every message × widths 1, 16 and 256 × both densities; the inlined
    /// floor at the static composition's widths, and `existentialArray` where the widths above leave it out
    /// (what the static composition's goals compare it with, Tests/MicrobenchTests/BaselineClaimsTests.swift).
    static var gateCases: [BenchmarkCase] {
        ScrollViewMessage.allCases.flatMap { message in
            gateWidths.flatMap { width in
                responderCounts(width: width).flatMap { responders in
                    Contender.all.map { dispatchCase($0, message, width: width, responders: responders) }
                        + [false, true].map {
                            cFunctionPointerCase(message, width: width, responders: responders, atomicPair: $0)
                        }
                }
            }
                + StaticFanOutFamily.widths.flatMap { width in
                    [floorCase(message, width: width, responders: width)]
                        + (gateWidths.contains(width) ? [] : responderCounts(width: width).map {
                            dispatchCase(.strategy(.existentialArray), message, width: width, responders: $0)
                        })
                }
        }
    }

    /// The inlined floor of the same message, width and responders: the gate's time reference for every case.
    static func gateReference(for benchmarkCase: BenchmarkCase) -> BenchmarkCase? {
        floorCase(
            ScrollViewMessage.allCases.first { "\($0)" == benchmarkCase.message } ?? .didScroll,
            width: benchmarkCase.width, responders: benchmarkCase.responders)
    }

    /// Responder counts measured at `width`: all targets, and one in sixteen
    /// (at least one) when that differs.
    static func responderCounts(width: Int) -> [Int] {
        let sparse = max(1, width / 16)
        return sparse == width ? [width] : [width, sparse]
    }

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for contender in Contender.all {
            for message in selection.messages {
                for width in selection.widths {
                    for responders in responderCounts(width: width) {
                        cases.append(dispatchCase(contender, message, width: width, responders: responders))
                    }
                }
            }
        }
        for message in selection.messages {
            for width in selection.widths {
                for responders in responderCounts(width: width) {
                    cases.append(floorCase(message, width: width, responders: responders))
                    cases.append(handWrittenLoopCase(message, width: width, responders: responders))
                    cases.append(weakBoxMulticastCase(message, width: width, responders: responders))
                    cases.append(cFunctionPointerCase(message, width: width, responders: responders))
                    cases.append(cFunctionPointerCase(message, width: width, responders: responders, atomicPair: true))
                }
            }
        }
        return cases
    }

    static func id(_ strategy: String, _ message: ScrollViewMessage, width: Int, responders: Int) -> CaseID {
        CaseID(benchmark: "dispatch", strategy: strategy, message: "\(message)", width: width, responders: responders)
    }

    /// `message` through a multiplexer of `contender`, as a `ScrollView` sends
    /// it: through `any ScrollViewDelegate`. The gate measures these cases.
    static func dispatchCase(_ contender: Contender, _ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(id(contender.name, message, width: width, responders: responders), deliveriesPerOperation: responders) {
            if case .guideGlue(let strategy) = contender {
                let (multiplexer, targets) = makeFilledGuideMultiplexer(strategy, width: width, responders: responders)
                let send = MessageLoop.body(sending: message, to: GuideReceiver(delegate: multiplexer))
                return { iterations in withExtendedLifetime(targets) { send(iterations) } }
            }
            let (multiplexer, lifetime) = makeFilledMultiplexer(contender, width: width, responders: responders)
            let targets = lifetime.targets, owner = lifetime.owner
            let send = MessageLoop.body(sending: message, to: DelegateReceiver(delegate: multiplexer))
            return { iterations in withExtendedLifetime(targets) { withExtendedLifetime(owner) { send(iterations) } } }
        }
    }

    /// The best possible: a hand-written loop over the responders as a
    /// concrete `final class`, static dispatch, no multiplexer.
    static func floorCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(id("floor", message, width: width, responders: responders), deliveriesPerOperation: responders) {
            MessageLoop.body(sending: message, to: FanOutLoop(targets: identity((0..<responders).map { _ in FloorTarget() })))
        }
    }

    /// What an app writes instead of a multiplexer: a forwarding class over `var targets: [any ScrollViewDelegate]`
    /// whose methods are `for target in targets { … }` (`HandWrittenForwarder`), sent to as a `ScrollView` sends
    /// to its delegate, through the protocol. Its loop retains each target it calls.
    static func handWrittenLoopCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(id("handWrittenLoop", message, width: width, responders: responders), deliveriesPerOperation: responders) {
            let forwarder = HandWrittenForwarder(targets: (0..<responders).map { makeTarget($0, responds: true) })
            return MessageLoop.body(sending: message, to: DelegateReceiver(delegate: forwarder))
        }
    }

    /// The multicast delegate many iOS codebases write by hand: an array of weak boxes, and `invoke` casting each
    /// live object to the protocol with `as?` for every message (`WeakBoxMulticast`), sent to through the protocol.
    /// What `weakArray` replaces.
    static func weakBoxMulticastCase(_ message: ScrollViewMessage, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(id("weakBoxMulticast", message, width: width, responders: responders), deliveriesPerOperation: responders) {
            let targets = (0..<responders).map { makeTarget($0, responds: true) }
            let send = MessageLoop.body(
                sending: message, to: DelegateReceiver(delegate: WeakBoxMulticast(targets.map { WeakBox($0) })))
            return { iterations in withExtendedLifetime(targets) { send(iterations) } }
        }
    }

    /// The floor of a dispatch whose targets are known only at run time: a C
    /// loop over (context, function pointer) pairs holding the responders,
    /// into two C callees per message (`Benchmarks/BenchFloor`). The gate
    /// measures these cases.
    ///
    /// With `atomicPair`, each message also makes one uncontended atomic
    /// increment and one decrement, out of line (`cFunctionPointerAtomicPair`):
    /// the floor of a dispatch that pays one retain and release per message.
    static func cFunctionPointerCase(
        _ message: ScrollViewMessage, width: Int, responders: Int, atomicPair: Bool = false
    ) -> BenchmarkCase {
        let name = atomicPair ? "cFunctionPointerAtomicPair" : "cFunctionPointer"
        return BenchmarkCase(id(name, message, width: width, responders: responders), deliveriesPerOperation: responders) {
            atomicPair
                ? MessageLoop.body(sending: message, to: CFanOutWithAtomicPair(fanOut: CFanOut(count: responders)))
                : MessageLoop.body(sending: message, to: CFanOut(count: responders))
        }
    }

    /// The series of the main charts: the six strategies, the C floor and the two loops apps write instead.
    static let headline = DispatchStrategy.allCases.map(\.rawValue) + ["cFunctionPointer", "handWrittenLoop", "weakBoxMulticast"]
    /// The floors, each the reference of a heat map of its own and in no other.
    static let floorsOfHeatMaps = ["floor", "cFunctionPointer", "cFunctionPointerAtomicPair"]

    static let charts = [
        ChartSpec(file: "delivery-vs-width", kind: "lines-by-message",
                  title: "Cost per delivery vs fan-out width: the six strategies, the C floor and the loops apps write",
                  parameters: ["benchmark": "dispatch", "y": "ns_per_delivery", "strategies": headline.joined(separator: ",")]),
        ChartSpec(file: "delivery-vs-width-variants", kind: "lines-by-message",
                  title: "Cost per delivery vs fan-out width: glue variants, lifetimeBound's forms, static fan-outs, peers",
                  parameters: ["benchmark": "dispatch", "y": "ns_per_delivery", "except": headline.joined(separator: ",")]),
        ChartSpec(file: "slowdown-heatmap", kind: "ratio-heatmap",
                  title: "Slowdown vs the inlined floor (ns per delivery ÷ floor's), didScroll",
                  parameters: ["benchmark": "dispatch", "message": "didScroll", "reference": "floor",
                               "except": floorsOfHeatMaps.joined(separator: ",")]),
        ChartSpec(file: "slowdown-vs-c-floor", kind: "ratio-heatmap",
                  title: "ns per delivery ÷ the C floor's (cFunctionPointer), didScroll: widths 1–8 are a screen's",
                  parameters: ["benchmark": "dispatch", "message": "didScroll", "reference": "cFunctionPointer",
                               "except": floorsOfHeatMaps.joined(separator: ",")]),
        ChartSpec(file: "counters-width-64", kind: "counters",
                  title: "Allocations and ARC traffic per message (counted in-process; runtime-internal ARC not seen)",
                  parameters: ["benchmark": "dispatch", "message": "didScroll", "width": "64",
                               "strategies": headline.joined(separator: ",")]),
    ]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let byID = rows.byID("dispatch")
        let shown = SummaryTable.shownWidths(selection.widths)
        let widths = publishedWidths(selection)
        let names = contenders.filter { name in byID.keys.contains { $0.strategy == name } }
        guard !names.isEmpty else { return [] }
        var timing = SummaryTable(
            title: "ns per delivery (median), every target responding, at widths \(widths.map(String.init).joined(separator: " / ")):",
            header: ["strategy"] + selection.messages.map { "\($0)" })
        let middle = shown.dropFirst().first ?? widths[0]
        var counting = SummaryTable(
            title: "counted per message at width \(middle): mallocs/retains/releases",
            header: ["strategy"] + selection.messages.map { "\($0)" })
        func counts(_ name: String, _ message: ScrollViewMessage) -> [Double]? {
            byID[id(name, message, width: middle, responders: middle)]?.counts.map { [$0.mallocs, $0.retains, $0.releases] }
        }
        var uncounted: [String] = []
        for name in names {
            timing.rows.append([name] + selection.messages.map { message in
                widths.map { width in
                    let row = byID[id(name, message, width: width, responders: width)]
                    // Unmarked figures of several processes padded by a space, so that columns stay aligned.
                    let mark = row?.interval.map { $0 > FigureSource.repeatedWithin ? "~" : " " } ?? ""
                    return SummaryTable.nanoseconds(row?.nanosecondsPerDelivery) + mark
                }.joined(separator: " ")
            })
            // The guide's glue is summarized in one line below: its counts are its strategy's, or it says which differ.
            guard !name.hasSuffix(Contender.guideGlueSuffix) else { continue }
            let cells = selection.messages.map { message in
                counts(name, message)?.map { CSV.number($0) }.joined(separator: "/") ?? "–"
            }
            if cells.allSatisfy({ $0 == "0/0/0" }) {
                uncounted.append(name)
            } else {
                counting.rows.append([name] + cells)
            }
        }
        let zeroLine = uncounted.isEmpty ? [] : ["0/0/0 for every message: " + uncounted.joined(separator: ", ")]
        let guides = names.filter { $0.hasSuffix(Contender.guideGlueSuffix) }
        let differing = guides.filter { guide in
            let strategy = String(guide.dropLast(Contender.guideGlueSuffix.count))
            return selection.messages.contains { counts(guide, $0) != counts(strategy, $0) }
        }
        let guideLine = guides.isEmpty ? [] : [
            differing.isEmpty
                ? "…\(Contender.guideGlueSuffix) (the guide's glue): the same counts as each strategy's"
                : "…\(Contender.guideGlueSuffix) (the guide's glue): counts differ from the strategy's in "
                    + differing.joined(separator: ", ")
        ]
        return timing.lines + processLines(rows.filter { BenchmarkFamilies.isPublished($0.id, selection) }) + [""]
            + againstHandWritten(byID, widths) + sparseCrossover(byID, selection) + [""]
            + counting.lines + zeroLine + guideLine
    }

    /// How far the published cases can be trusted: their intervals' half-widths (median, 90th percentile, widest),
    /// the cases beyond ``FigureSource/repeatedWithin`` (marked `~` in the table), and the processes set aside as slowed.
    static func processLines(_ rows: [ResultRow]) -> [String] {
        let repeated = rows.filter { $0.processes ?? 0 > 1 && $0.interval != nil }
        guard let processes = repeated.map({ $0.processes! }).max() else { return [] }
        let intervals = repeated.map { $0.interval! }.sorted()
        func percent(_ value: Double) -> String { "±" + Report.fixed(value * 100, decimals: 1) + " %" }
        let widest = repeated.max { $0.interval! < $1.interval! }!
        let slowed = repeated.filter { $0.slowedProcesses ?? 0 > 0 }
        let slowedCount = slowed.reduce(0) { $0 + ($1.slowedProcesses ?? 0) }
        let runs = repeated.compactMap(\.runs).max() ?? 1
        return [
            (runs > 1 ? "each above the mean of \(runs) full runs, each" : "each above")
                + " in \(processes) fresh processes; a rerun falls within ± its interval nine times in ten:"
                + " median \(percent(Summary.quantile(0.5, ofSorted: intervals))),"
                + " 90th percentile \(percent(Summary.quantile(0.9, ofSorted: intervals))), widest"
                + " \(percent(widest.interval!)) (\(widest.name)); ~ marks the \(repeated.filter(FigureSource.isLoose).count)"
                + " beyond ±5 %",
            "slowed processes set aside: \(slowedCount)"
                + (slowed.isEmpty ? "" : " (" + slowed.prefix(3).map(\.name).joined(separator: ", ")
                    + (slowed.count > 3 ? ", …" : "") + ")")
                + "; process k places its stack and heap data by seed k (address randomization off), and this build's"
                + " code placement is the same in every process: only another build shows it",
        ]
    }

    /// Each strategy against the loop an app would write instead, didScroll, every target responding: the strong
    /// strategies against `for target in targets` over `[any ScrollViewDelegate]` (`handWrittenLoop`), `weakArray`
    /// against the weak-box multicast (`weakBoxMulticast`).
    static func againstHandWritten(_ byID: [CaseID: ResultRow], _ widths: [Int]) -> [String] {
        func ratio(_ name: String, _ reference: String, _ width: Int) -> String {
            guard let row = byID[id(name, .didScroll, width: width, responders: width)],
                let base = byID[id(reference, .didScroll, width: width, responders: width)],
                base.nanosecondsPerDelivery > 0
            else { return "–" }
            return String(format: "%.2f", row.nanosecondsPerDelivery / base.nanosecondsPerDelivery)
        }
        let pairs = [
            ("existentialArray", "handWrittenLoop"), ("closureTable", "handWrittenLoop"),
            ("lifetimeBoundToOwner", "handWrittenLoop"), ("weakArray", "weakBoxMulticast"),
        ]
        let cells = pairs.map { name, reference in
            "\(name) \(widths.map { ratio(name, reference, $0) }.joined(separator: " "))"
        }
        return [
            "against the loop an app writes instead (didScroll, ns ÷ its ns, widths "
                + widths.map(String.init).joined(separator: " / ") + "; weakArray against the weak-box multicast, "
                + "the others against a `for` loop over [any ScrollViewDelegate]): " + cells.joined(separator: "; ")
        ]
    }

    /// From which width visiting responders only (`closureTable`) beats
    /// visiting every target (`existentialArray`) when one in sixteen responds.
    static func sparseCrossover(_ byID: [CaseID: ResultRow], _ selection: Selection) -> [String] {
        let crossovers = selection.messages.map { message -> String in
            let width = selection.widths.sorted().first { width in
                let responders = max(1, width / 16)
                guard responders < width,
                      let closures = byID[id("closureTable", message, width: width, responders: responders)],
                      let existentials = byID[id("existentialArray", message, width: width, responders: responders)]
                else { return false }
                return closures.nanosecondsPerOperationMedian < existentials.nanosecondsPerOperationMedian
            }
            return "\(message) \(width.map { "from \($0)" } ?? "never")"
        }
        return ["sparse (1 in 16 responding): closureTable beats existentialArray at " + crossovers.joined(separator: ", ")]
    }
}

/// The floor's target: a concrete `final class` whose calls are static.
final class FloorTarget {
    var tally = 0
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        tally &+= 1
        targetContentOffset.pointee = velocity
    }
}

extension FloorTarget: MessageReceiver {}

/// A hand-written loop over targets of one type: the floors.
struct FanOutLoop<Target: MessageReceiver>: MessageReceiver {
    let targets: [Target]

    func scrollViewDidScroll(_ scrollView: ScrollView) { for target in targets { target.scrollViewDidScroll(scrollView) } }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        for target in targets { target.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate) }
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        var allowed = true
        for target in targets { allowed = target.scrollViewShouldScrollToTop(scrollView) && allowed }
        return allowed
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        for target in targets { if let view = target.viewForZooming(in: scrollView) { return view } }
        return nil
    }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        for target in targets {
            target.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
        }
    }
}

/// A weak reference, as hand-written multicast delegates keep them.
final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// The forwarding class an app writes by hand: a strong array of targets, and a `for` loop per message.
final class HandWrittenForwarder: ScrollViewDelegate {
    var targets: [any ScrollViewDelegate]

    init(targets: [any ScrollViewDelegate]) { self.targets = targets }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        for target in targets { target.scrollViewDidScroll(scrollView) }
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        for target in targets { target.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate) }
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        var allowed = true
        for target in targets { allowed = target.scrollViewShouldScrollToTop(scrollView) && allowed }
        return allowed
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        for target in targets { if let view = target.viewForZooming(in: scrollView) { return view } }
        return nil
    }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        for target in targets {
            target.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
        }
    }
}

/// The hand-written weak multicast delegate: `invoke` loads each box's object and casts it to the protocol.
final class WeakBoxMulticast: ScrollViewDelegate {
    var boxes: [WeakBox]

    init(_ boxes: [WeakBox]) { self.boxes = boxes }

    func invoke(_ body: (any ScrollViewDelegate) -> Void) {
        for box in boxes {
            if let delegate = box.object as? any ScrollViewDelegate { body(delegate) }
        }
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) { invoke { $0.scrollViewDidScroll(scrollView) } }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        invoke { $0.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate) }
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        var allowed = true
        invoke { allowed = $0.scrollViewShouldScrollToTop(scrollView) && allowed }
        return allowed
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        var view: AnyObject?
        invoke { if view == nil { view = $0.viewForZooming(in: scrollView) } }
        return view
    }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        invoke { $0.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset) }
    }
}
