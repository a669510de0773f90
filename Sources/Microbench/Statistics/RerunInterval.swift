/// How far a published figure can be trusted: the relative half-width of an interval around it that a rerun of the
/// same build on the same machine falls inside nine times out of ten.
///
/// One run cannot see a run-level mode (on some VMs every case of a run is 5–20 % faster or slower than in the next)
/// from its own processes, which all share it. So the interval combines two spreads, each relative to the figure:
/// - within the run: the figure of each time block of its processes (consecutive seeds, which run one after
///   another), whose spread says how far the figure moved over the run's duration;
/// - between runs: the spread of the same case's figure over the full runs recorded for this CPU model
///   (``between(_:pooled:)``), which holds the modes. Without a record, the interval covers this run's processes
///   only, and says so (``runs`` is 0).
///
/// A rerun's figure and this one each carry both, so their difference has twice the variance of one:
/// half-width = z₉₀ × √2 × √(within² + between²), z₉₀ = 1.645 (a normal approximation; the acceptance of the figures
/// measures the coverage this gives, `scripts/compare --agreement`).
public struct RerunInterval: Equatable, Sendable {
    /// The relative half-width: the interval is figure × (1 ± halfWidth).
    public let halfWidth: Double
    /// The standard error of the figure from its time blocks, relative to it.
    public let within: Double
    /// The relative standard deviation of the case's figure between recorded runs (0 without a record).
    public let between: Double
    /// How many recorded full runs ``between`` came from; 0 when the interval covers this run's processes only.
    public let runs: Int

    /// The normal quantile of a two-sided 90 % interval.
    public static let z90 = 1.645

    /// The interval of one run's figure: a rerun's figure and this one each carry both spreads, so their
    /// difference has twice the variance of one: half-width = z₉₀ × √2 × √(within² + between²).
    public init(within: Double, between: Double, runs: Int) {
        self.within = within
        self.between = between
        self.runs = runs
        halfWidth = Self.z90 * (2 * (within * within + between * between)).squareRoot()
    }

    /// The interval of the mean of `runs` recorded runs whose figures spread by `between` from run to run: a rerun
    /// differs from that mean by its own spread and the mean's, half-width = z₉₀ × between × √(1 + 1/runs).
    public init(meanOf runs: Int, between: Double) {
        within = 0
        self.between = between
        self.runs = runs
        halfWidth = Self.z90 * between * (1 + 1 / Double(max(runs, 1))).squareRoot()
    }

    /// The figures of `values`, its processes' medians in the order they ran, in consecutive time blocks (two to six,
    /// at least five processes each), each the mean ``ProcessFigure`` takes; empty with fewer than four processes.
    ///
    /// - Complexity: O(*p* log *p*) for *p* processes.
    public static func blockFigures(_ values: [Double], deliveries: Int = 1) -> [Double] {
        guard values.count >= 4 else { return [] }
        let blockCount = max(2, min(6, values.count / 5))
        let size = values.count / blockCount
        return (0..<blockCount).map { block -> Double in
            let end = block == blockCount - 1 ? values.count : (block + 1) * size
            return ProcessFigure(Array(values[(block * size)..<end]), deliveries: deliveries).figure
        }
    }

    /// How far `figure` moved within its run: the standard deviation of its time blocks' figures
    /// (``blockFigures(_:deliveries:)``), divided by `figure`. Not their standard error: a run whose figure moved
    /// over its duration says that the machine's mode moves, and a rerun may land where any part of it did. A set of
    /// processes that drifts over the run has blocks far apart, and a wide interval; a steady one, a narrow one.
    /// 0 without blocks.
    public static func within(blocks: [Double], figure: Double) -> Double {
        guard figure > 0 else { return 0 }
        let mean = blocks.reduce(0, +) / Double(max(blocks.count, 1))
        return relativeDeviation(blocks) * mean / figure
    }

    /// How far the figure moved over the run: its last block over its first, minus 1; `nil` without blocks.
    public static func drift(blocks: [Double]) -> Double? {
        guard let first = blocks.first, let last = blocks.last, blocks.count >= 2, first > 0 else { return nil }
        return last / first - 1
    }

    /// The relative standard deviation of `values` (0 with fewer than two, or a mean of 0).
    public static func relativeDeviation(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        guard mean > 0 else { return 0 }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return variance.squareRoot() / mean
    }

    /// The relative standard deviation between runs of a case whose recorded runs measured `figures`, shrunk toward
    /// `pooled` (the median of every recorded case's): with three runs, one case's own spread is a loose estimate,
    /// so it counts for half.
    public static func between(_ figures: [Double], pooled: Double) -> Double {
        let own = relativeDeviation(figures)
        return ((own * own + pooled * pooled) / 2).squareRoot()
    }
}
