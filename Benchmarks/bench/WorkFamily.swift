import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// `work` and `workCold`: didScroll to targets whose callback does real work,
/// about 0, 10 ns, 100 ns, 1 µs and 10 µs of dependent arithmetic in one
/// `@inline(never)` function (``Work/spin(_:)``) that the floor's loop and
/// the targets share, at widths 1, 16 and 256, every target responding, warm
/// (as `dispatch`) and cold (as `cold`). The message column names the work.
///
/// The question it answers: what share of a callback's time is the dispatch?
/// The summary reports the dispatch-only cost (the same strategy with no work,
/// from the same run) divided by the time per delivery with work, and how many
/// behaviours fit in 1 % of a 120 Hz frame (83 µs).
enum WorkFamily: BenchmarkFamily {
    static let guidePart: (part: GuidePart, benchmark: String)? = (.work, "work")
    static let contenders = DispatchStrategy.allCases.map(\.rawValue) + ["floor"]
    static let widths = [1, 16, 256]
    static let nanoseconds = [0, 10, 100, 1_000, 10_000]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        var cases: [BenchmarkCase] = []
        // A quick run keeps one width and three amounts of work.
        for width in widths where selection.widths.contains(width) && (!selection.isQuick || width == 16) {
            for work in nanoseconds where !selection.isQuick || [0, 100, 10_000].contains(work) {
                let rounds = Work.rounds(forNanoseconds: work)
                cases += DispatchStrategy.allCases.map { warmCase($0.rawValue, work, rounds, width) }
                cases.append(warmCase("floor", work, rounds, width))
                if Eviction.isAvailable {
                    cases += DispatchStrategy.allCases.map { coldCase($0, work, rounds, width) }
                }
            }
        }
        return cases
    }

    static func id(_ benchmark: String, _ strategy: String, work: Int, width: Int) -> CaseID {
        CaseID(benchmark: benchmark, strategy: strategy, message: "\(work)ns", width: width, responders: width)
    }

    /// `width` working targets behind a multiplexer of `strategy`, or in a
    /// hand-written loop over a concrete class (`floor`).
    static func send(_ strategy: String, rounds: Int, width: Int) -> () -> Void {
        let view = ScrollView()
        guard let dispatch = DispatchStrategy(rawValue: strategy) else {
            let targets = identity((0..<width).map { _ in WorkFloorTarget(rounds: rounds) })
            return { for target in targets { target.scrollViewDidScroll(view) } }
        }
        let targets: [any ScrollViewDelegate] = (0..<width).map { _ in WorkTarget(rounds: rounds) }
        let multiplexer = identity(dispatch.makeMultiplexer())
        for target in targets { multiplexer.add(target) }
        return { withExtendedLifetime(targets) { multiplexer.scrollViewDidScroll(view) } }
    }

    static func warmCase(_ strategy: String, _ work: Int, _ rounds: Int, _ width: Int) -> BenchmarkCase {
        BenchmarkCase(id("work", strategy, work: work, width: width), deliveriesPerOperation: width) {
            let message = send(strategy, rounds: rounds, width: width)
            return { iterations in for _ in 0..<iterations { message() } }
        }
    }

    static func coldCase(_ strategy: DispatchStrategy, _ work: Int, _ rounds: Int, _ width: Int) -> BenchmarkCase {
        BenchmarkCase(cold: id("workCold", strategy.rawValue, work: work, width: width), deliveriesPerOperation: width,
                      samples: ColdFamily.samples) {
            let (message, eviction) = Eviction.recording { send(strategy.rawValue, rounds: rounds, width: width) }
            return ColdBody(evict: eviction.flush, operation: message)
        }
    }

    static let charts = [
        ChartSpec(file: "work-overhead", kind: "work-overhead",
                  title: "Dispatch as a share of each delivery, against the work per callback",
                  parameters: ["warm": "work", "cold": "workCold", "reference": "0"]),
    ]

    /// The share of a delivery that is dispatch: the strategy's time with no
    /// work over its time with `work`, from rows of `benchmark`.
    static func overhead(_ rows: [CaseID: ResultRow], _ benchmark: String, _ strategy: String, work: Int, width: Int) -> (share: Double, spread: Double)? {
        guard let bare = rows[id(benchmark, strategy, work: 0, width: width)],
              let loaded = rows[id(benchmark, strategy, work: work, width: width)] else { return nil }
        return (bare.nanosecondsPerDelivery / loaded.nanosecondsPerDelivery, loaded.relativeSpread)
    }

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let warm = rows.byID("work")
        guard let width = [16, 1, 256].first(where: { width in warm.keys.contains { $0.width == width } }) else { return [] }
        let shares = [100, 1_000].map { work -> String in
            let parts = contenders.compactMap { name -> String? in
                overhead(warm, "work", name, work: work, width: width).map {
                    "\(name) \(Report.fixed($0.share * 100, decimals: 1))%"
                }
            }
            return "  \(work) ns: " + parts.joined(separator: ", ")
        }
        let frame = contenders.compactMap { name -> String? in
            warm[id("work", name, work: 1_000, width: width)].map {
                "\(name) \(Int((83_333 / $0.nanosecondsPerDelivery).rounded(.down)))"
            }
        }
        // No calibration: a summary of a file would print this process's, not the run's.
        return ["work per callback (rounds of dependent arithmetic); dispatch share of a delivery at width \(width), warm:"]
            + shares
            + ["behaviours of 1 µs each per 1 % of a 120 Hz frame (83 µs), width \(width): " + frame.joined(separator: ", ")]
    }
}

/// Calibrated dependent arithmetic: the work a callback does.
enum Work {
    /// Nanoseconds per round of ``spin(_:)``, measured once: the median of 9
    /// runs of 200 000 rounds.
    static let nanosecondsPerRound: Double = {
        var runs: [Double] = []
        for _ in 0..<9 {
            let start = MonotonicClock.now()
            blackHole(spin(identity(200_000)))  // an opaque count: a constant one was folded away
            runs.append(Double(MonotonicClock.now() - start) / 200_000)
        }
        return runs.sorted()[4]
    }()

    /// The rounds that take about `nanoseconds`; 0 for no work.
    static func rounds(forNanoseconds nanoseconds: Int) -> Int {
        nanoseconds == 0 ? 0 : max(1, Int((Double(nanoseconds) / nanosecondsPerRound).rounded()))
    }

    /// `rounds` steps of a linear congruential generator, each depending on
    /// the last: work the optimizer cannot remove or vectorize.
    @inline(never)
    static func spin(_ rounds: Int) -> UInt64 {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<rounds { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        return state
    }
}

/// A target whose didScroll does `rounds` of work.
final class WorkTarget: ScrollViewDelegate {
    let rounds: Int
    var sink: UInt64 = 0
    init(rounds: Int) { self.rounds = rounds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { sink &+= Work.spin(rounds) }
}

/// The floor's target: the same work, called statically.
final class WorkFloorTarget {
    let rounds: Int
    var sink: UInt64 = 0
    init(rounds: Int) { self.rounds = rounds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { sink &+= Work.spin(rounds) }
}
