/// A case measured in several processes: each process's median, which of them were slowed, and the figure the run
/// reports.
///
/// A process can run a case slower for its whole life (placement of its heap and stacks, a neighbour on the host,
/// a frequency change): every sample of that process is slow, so more samples in the same process do not help.
/// A fresh process draws those conditions again. A process counts as *slowed* for a case when its median is at
/// least ``slowedRatio`` times, and ``slowedNanosecondsPerDelivery`` per delivery more than, the median over
/// every process (with three or more processes: two cannot say which one is off). Slowed processes are set aside
/// when they are fewer than half (otherwise being slow is the case's behaviour).
///
/// The figure is the mean of the processes kept, the fastest and slowest ``trimmedShare`` of them left out, not
/// their median: a case's processes can fall in two groups 10-25 % apart, and a median jumps from one to the other
/// when one process changes sides, where a mean moves by that process's share.
///
/// What no fresh process draws again is the code's placement in this build (alignment of its loops, which
/// functions share a cache line): it is the same in every process, so it shows only against another build
/// (`scripts/compare-builds`) or another harness (`scripts/second-harness`), never in ``spread``.
public struct ProcessFigure: Equatable, Sendable {
    /// How many times the other processes' median a process's must be, at least, to count as slowed.
    public static let slowedRatio = 1.3
    /// How much more per delivery, at least, in nanoseconds: a ratio alone flags noise on a case of a few cycles.
    public static let slowedNanosecondsPerDelivery = 0.5

    /// Each process's median, in the order the processes ran (the run's own process first).
    public let values: [Double]
    /// The indices in ``values`` of the processes set aside as slowed.
    public let slowed: [Int]
    /// The share of the kept processes left out of the mean at each end (rounded down: none of fewer than ten).
    public static let trimmedShare = 0.1

    /// The mean over the processes averaged: those not set aside, less the fastest and slowest ``trimmedShare``.
    public let figure: Double
    /// (largest − smallest) ÷ ``figure`` over the processes averaged: how far this case moves between processes
    /// (0 when the figure is 0).
    public let spread: Double

    /// The figure of a case whose processes measured `values` (ns per operation), for `deliveries` deliveries per
    /// operation.
    ///
    /// - Precondition: `values` is not empty.
    /// - Complexity: O(*p* log *p*) for *p* processes.
    public init(_ values: [Double], deliveries: Int = 1) {
        precondition(!values.isEmpty, "a figure needs at least one process")
        self.values = values
        let median = Summary.quantile(0.5, ofSorted: values.sorted())
        let margin = Self.slowedNanosecondsPerDelivery * Double(max(deliveries, 1))
        var slowed = values.indices.filter {
            values.count >= 3 && values[$0] >= median * Self.slowedRatio && values[$0] - median >= margin
        }
        // Half of an even number of processes can stand that far above the median: then none is set aside.
        if slowed.count * 2 >= values.count { slowed = [] }
        self.slowed = slowed
        let kept = values.indices.filter { !slowed.contains($0) }.map { values[$0] }.sorted()
        let trimmed = Int(Double(kept.count) * Self.trimmedShare)
        let averaged = kept[trimmed..<(kept.count - trimmed)]
        figure = averaged.reduce(0, +) / Double(averaged.count)
        spread = figure > 0 ? (averaged.last! - averaged.first!) / figure : 0
    }
}
