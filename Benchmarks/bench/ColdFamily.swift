import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// `cold`: didScroll with the caches cold, as a delegate message arrives
/// between frames of other work. Targets are scattered among other heap
/// objects and registered in shuffled order (``ScatteredFanOut``); before each
/// timed message, every heap block allocated while the case was built is
/// flushed from the caches (``Eviction``, clflush on x86-64), untimed; each
/// message is timed on its own, the clock's cost subtracted. 20 samples.
///
/// `coldSweep`: two cases evicted instead by a pass over four times the
/// last-level cache (``LastLevelSweep``), once, to cross-check the flush.
///
/// A full run also counts each cold case's last-level data misses in
/// callgrind's cache simulation (``CacheMissPass``), reported per delivery.
enum ColdFamily: BenchmarkFamily {
    static let guidePart: (part: GuidePart, benchmark: String)? = (.cold, "cold")
    static let contenders = DispatchStrategy.allCases.map(\.rawValue) + ["handWrittenLoop"]
    static let widths = [1, 4, 16, 64, 256, 1024]
    static let samples = 20

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll, Eviction.isAvailable else { return [] }
        var cases: [BenchmarkCase] = []
        // A quick run keeps one width (the smoke test of the code paths).
        for width in widths where selection.widths.contains(width) && (!selection.isQuick || width == 16) {
            for responders in DispatchFamily.responderCounts(width: width) {
                cases += DispatchStrategy.allCases.map { coldCase($0, width: width, responders: responders) }
                cases.append(coldFloorCase(width: width, responders: responders))
            }
        }
        if selection.widths.contains(256) && !selection.isQuick {
            cases += [DispatchStrategy.existentialArray, .weakArray].map { sweepCase($0, width: 256) }
        }
        return cases
    }

    /// Whether a full run counts `benchmarkCase`'s cache misses: the `cold`
    /// cases (with work or a sweep, the simulation would take minutes).
    static func countsCacheMisses(_ benchmarkCase: BenchmarkCase) -> Bool {
        benchmarkCase.benchmark == "cold"
    }

    static func id(_ benchmark: String, _ strategy: String, width: Int, responders: Int) -> CaseID {
        CaseID(benchmark: benchmark, strategy: strategy, message: "didScroll", width: width, responders: responders)
    }

    /// A multiplexer of `strategy` over a scattered fan-out, built while its
    /// allocations are recorded, and the didScroll that a cold case times.
    static func scattered(_ strategy: DispatchStrategy, width: Int, responders: Int) -> (Eviction, () -> Void) {
        let view = ScrollView()
        let ((multiplexer, fanOut), eviction) = Eviction.recording {
            let fanOut = ScatteredFanOut(width: width, responders: responders)
            let multiplexer = identity(strategy.makeMultiplexer())
            for target in fanOut.targets { multiplexer.add(target) }
            return (multiplexer, fanOut)
        }
        return (eviction, { withExtendedLifetime(fanOut) { multiplexer.scrollViewDidScroll(view) } })
    }

    static func coldCase(_ strategy: DispatchStrategy, width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(cold: id("cold", strategy.rawValue, width: width, responders: responders),
                      deliveriesPerOperation: responders, samples: samples) {
            let (eviction, send) = scattered(strategy, width: width, responders: responders)
            return ColdBody(evict: eviction.flush, operation: send)
        }
    }

    /// The forwarding class an app writes instead (`HandWrittenForwarder`), over the responders scattered too.
    static func coldFloorCase(width: Int, responders: Int) -> BenchmarkCase {
        BenchmarkCase(cold: id("cold", "handWrittenLoop", width: width, responders: responders),
                      deliveriesPerOperation: responders, samples: samples) {
            let view = ScrollView()
            let (loop, eviction) = Eviction.recording {
                let fanOut = ScatteredFanOut(width: responders, responders: responders)
                return (DelegateReceiver(delegate: HandWrittenForwarder(targets: fanOut.targets)), fanOut)
            }
            return ColdBody(evict: eviction.flush) { withExtendedLifetime(loop.1) { loop.0.scrollViewDidScroll(view) } }
        }
    }

    /// Evicted by a pass over four times the last-level cache instead.
    static func sweepCase(_ strategy: DispatchStrategy, width: Int) -> BenchmarkCase {
        BenchmarkCase(cold: id("coldSweep", strategy.rawValue, width: width, responders: width),
                      deliveriesPerOperation: width, samples: samples) {
            let sweep = LastLevelSweep()
            let (_, send) = scattered(strategy, width: width, responders: width)
            return ColdBody(evict: sweep.run, operation: send)
        }
    }

    static let charts = [
        ChartSpec(file: "cold-vs-warm", kind: "cold-vs-warm",
                  title: "didScroll with cold caches vs warm, ns per delivery (median), every target responding",
                  parameters: ["benchmark": "cold", "warm": "dispatch", "message": "didScroll"]),
    ]

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let cold = rows.byID("cold"), warm = rows.byID("dispatch"), sweep = rows.byID("coldSweep")
        let width = [256, 16].first { width in cold.keys.contains { $0.width == width } }
        guard let width else { return [] }
        let parts = contenders.compactMap { name -> String? in
            guard let row = cold[id("cold", name, width: width, responders: width)] else { return nil }
            let warmRow = warm[DispatchFamily.id(name, .didScroll, width: width, responders: width)]
            let lines = row.cacheMissesPerDelivery.map { ", \(Report.fixed($0, decimals: 1)) lines" } ?? ""
            return "\(name) \(SummaryTable.nanoseconds(row.nanosecondsPerDelivery))"
                + (warmRow.map { " (warm \(SummaryTable.nanoseconds($0.nanosecondsPerDelivery))\(lines))" } ?? lines)
        }
        var lines = ["cold didScroll at width \(width), ns per delivery: " + parts.joined(separator: ", ")]
        if let swept = sweep[id("coldSweep", "existentialArray", width: 256, responders: 256)],
           let flushed = cold[id("cold", "existentialArray", width: 256, responders: 256)] {
            lines.append("cold cross-check, existentialArray at 256: flushed \(SummaryTable.nanoseconds(flushed.nanosecondsPerDelivery))"
                + " ns, swept \((4 * LastLevelSweep.lastLevelBytes) >> 20) MiB \(SummaryTable.nanoseconds(swept.nanosecondsPerDelivery)) ns per delivery")
        }
        return lines
    }
}
