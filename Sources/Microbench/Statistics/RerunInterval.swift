/// How far a published figure can be trusted: the relative half-width of an interval around it that a rerun of the
/// same build on the same machine falls inside nine times out of ten.
///
/// One run cannot see a run-level mode (on some VMs every case of a run is 2–20 % faster or slower than in the next)
/// from its own processes, which all share it. So the interval combines three spreads, each relative to the figure:
/// - within the run: the figure of each time block of its processes (consecutive seeds, which run one after
///   another), whose spread says how far the figure moved over the run's duration;
/// - the run level: how far whole runs recorded for this CPU model moved from one another, every case together
///   (``RunRecord/runLevel``);
/// - the case's own: how far the case moved between those runs beyond its run's level (``RunRecord/spread(of:)``).
/// Without a record, the interval covers this run's processes only, and says so (``runs`` is 0).
///
/// A rerun's figure and this one each carry every spread, so their difference has √2 times the spread of one. The
/// run-level part moves every figure of a run together and does not average out over a run's figures, so it is
/// bounded on its own, at 95 % with Student's t for the recorded runs (``t975(degreesOfFreedom:)``), and added to
/// the case's 90 % part: half-width = √2 × (t × runLevel + z₉₀ × √(within² + between²)), z₉₀ = 1.645. Nine in ten
/// of a rerun's figures then fall inside in nearly every rerun made in the conditions the record saw, not only on
/// average (`scripts/compare --agreement` measures it, pair by pair). Runs made back to back share their level more
/// than runs hours apart, so a record made within one hour understates the level's spread over a day: a record
/// should span the hours, and sessions, it is read in.
public struct RerunInterval: Equatable, Sendable {
    /// The relative half-width: the interval is figure × (1 ± halfWidth).
    public let halfWidth: Double
    /// The standard deviation of the figure's time blocks, relative to it.
    public let within: Double
    /// The case's relative standard deviation between recorded runs beyond their run level (0 without a record).
    public let between: Double
    /// The relative standard deviation of the recorded runs' levels (0 without a record).
    public let runLevel: Double
    /// How many recorded full runs ``between`` and ``runLevel`` came from; 0 when the interval covers this run's
    /// processes only.
    public let runs: Int

    /// The normal quantile of a two-sided 90 % interval.
    public static let z90 = 1.645

    /// The interval of one run's figure: half-width = √2 × (t × runLevel + z₉₀ × √(within² + between²)), t for
    /// `runs` − 1 degrees of freedom.
    public init(within: Double, between: Double = 0, runLevel: Double = 0, runs: Int) {
        self.within = within
        self.between = between
        self.runLevel = runLevel
        self.runs = runs
        let level = runLevel > 0 ? Self.t975(degreesOfFreedom: runs - 1) * runLevel : 0
        halfWidth = 2.squareRoot() * (level + Self.z90 * (within * within + between * between).squareRoot())
    }

    /// The interval of the mean of `runs` recorded runs: a rerun differs from that mean by its own spreads and the
    /// mean's, half-width = √(1 + 1/runs) × (t × runLevel + z₉₀ × between), t for the `recorded` − 1 degrees of
    /// freedom of the runs `runLevel` came from (`runs`, unless some of them lack the case).
    public init(meanOf runs: Int, between: Double, runLevel: Double, recorded: Int? = nil) {
        within = 0
        self.between = between
        self.runLevel = runLevel
        self.runs = runs
        let level = runLevel > 0 ? Self.t975(degreesOfFreedom: (recorded ?? runs) - 1) * runLevel : 0
        halfWidth = (1 + 1 / Double(max(runs, 1))).squareRoot() * (level + Self.z90 * between)
    }

    /// Student's t quantile at 0.975 for `degreesOfFreedom` (at least 1): a table to 10, then the Cornish–Fisher
    /// expansion around the normal's 1.960, within 0.003 of the exact value from 10 on.
    public static func t975(degreesOfFreedom: Int) -> Double {
        let table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
        let df = max(degreesOfFreedom, 1)
        if df <= table.count { return table[df - 1] }
        let (z, n) = (1.959964, Double(df))
        let (z3, z5) = (z * z * z, z * z * z * z * z)
        return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n)
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
        return standardDeviation(values, around: mean) / mean
    }

    /// The standard deviation of `values` around `center` (their own mean when `nil`), with one degree of freedom
    /// fewer than values; 0 with fewer than two.
    static func standardDeviation(_ values: [Double], around center: Double? = nil) -> Double {
        guard values.count >= 2 else { return 0 }
        let center = center ?? values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - center) * ($1 - center) } / Double(values.count - 1)).squareRoot()
    }

    /// A case's spread between recorded runs, shrunk toward `pooled` (the median of every recorded case's): one case's
    /// own spread over a few runs is a loose estimate, so it counts for half.
    public static func shrunk(_ own: Double, toward pooled: Double) -> Double {
        ((own * own + pooled * pooled) / 2).squareRoot()
    }
}
