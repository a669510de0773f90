/// How much to measure per case.
public struct RunConfiguration: Equatable, Sendable {
    /// Timed samples per case; the statistics are over these.
    public var samples: Int = 30
    /// How many passes over all the cases the samples are spread across.
    /// The project's CI and development VMs (2-core x86-64, shared) change
    /// speed for seconds at a time, so a case measured in one burst can land
    /// wholly in a slow or a fast spell;
    /// spreading its samples over the run makes every case see the same mix.
    public var rounds: Int = 10
    /// The target duration of one sample, in milliseconds; inner iterations
    /// are calibrated to reach it.
    public var sampleTimeMilliseconds: Double = 2
    /// Time spent running the case before calibrating, in milliseconds.
    public var warmUpMilliseconds: Double = 5
    /// Iterations in the separate counting pass, for a case of up to 100
    /// deliveries per operation. Fixed, so that a case's counts per operation
    /// do not depend on its calibration.
    public var countingIterations: Int = 200

    /// The counting pass's iterations for `benchmarkCase`: ``countingIterations``,
    /// or fewer for a case with more than 100 deliveries per operation, so
    /// that about 20 000 deliveries are counted (at least 2 operations): a
    /// case that adds 10 000 targets per operation would otherwise count for
    /// seconds. It depends on the case alone, not on its calibration.
    public func countingIterations(for benchmarkCase: BenchmarkCase) -> Int {
        min(countingIterations, max(2, 20_000 / max(benchmarkCase.deliveriesPerOperation, 1)))
    }

    public init() {}
}
