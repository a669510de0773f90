/// The measurements of one case.
public struct CaseMeasurement: Sendable {
    /// Inner iterations per timed sample.
    public var iterations: Int
    /// Nanoseconds per operation over the timed samples.
    public var nanosecondsPerOperation: Summary
    /// Counted calls per operation, from the separate counting pass; `nil`
    /// when the binary has no counting hooks.
    public var countsPerOperation: CountsPerOperation?
    /// Heap growth per unit, for cases that measure it.
    public var heapBytesPerUnit: Double?
}

/// Counted calls divided by the iterations of the counting pass.
public struct CountsPerOperation: Equatable, Sendable {
    public var mallocs: Double
    public var bytes: Double
    public var retains: Double
    public var releases: Double

    public init(_ reading: CounterReading, iterations: Int) {
        let divisor = Double(max(iterations, 1))
        mallocs = Double(reading.mallocs) / divisor
        bytes = Double(reading.bytes) / divisor
        retains = Double(reading.retains) / divisor
        releases = Double(reading.releases) / divisor
    }

    public init(mallocs: Double, bytes: Double, retains: Double, releases: Double) {
        self.mallocs = mallocs
        self.bytes = bytes
        self.retains = retains
        self.releases = releases
    }
}

/// Measures cases: warm-up, calibration, timed samples with counting off,
/// then one counting pass.
public struct Runner {
    public var configuration: RunConfiguration

    public init(configuration: RunConfiguration = RunConfiguration()) {
        self.configuration = configuration
    }

    /// Measures one case on its own (all rounds back to back).
    public func measure(_ benchmarkCase: BenchmarkCase) -> CaseMeasurement {
        measure([benchmarkCase])[0]
    }

    /// Measures `cases`, interleaved: every case is set up and calibrated,
    /// then each round takes a share of every case's samples, case after case;
    /// finally each case gets its counting pass.
    ///
    /// Timing and counting are separate passes: while samples are timed no
    /// thread counts, so the interposed functions cost one predictable branch.
    ///
    /// - Parameters:
    ///   - willMeasure: Called with a case's index before it is set up, calibrated and timed: what a fresh process
    ///     reports, so that its run can name the case it was on if it hangs or crashes.
    ///   - progress: Called after each case's part of a round with the case's index and the fraction of the whole
    ///     run done.
    public func measure(
        _ cases: [BenchmarkCase], willMeasure: (_ index: Int) -> Void = { _ in },
        progress: (_ index: Int, _ fractionDone: Double) -> Void = { _, _ in }
    ) -> [CaseMeasurement] {
        let colds = cases.indices.map { index in
            willMeasure(index)
            return cases[index].coldSetUp?()
        }
        let bodies = cases.indices.map { index in
            willMeasure(index)
            return colds[index].map { cold in { iterations in for _ in 0..<iterations { cold.operation() } } }
                ?? cases[index].setUp()
        }
        let iterations = cases.indices.map { index in
            willMeasure(index)
            return colds[index] == nil ? calibrate(bodies[index]) : 1
        }
        let clockCost = colds.contains { $0 != nil } ? Self.clockCost() : 0
        let rounds = max(1, min(configuration.rounds, configuration.samples))
        var samples = [[Double]](repeating: [], count: cases.count)
        for round in 0..<rounds {
            for index in cases.indices {
                willMeasure(index)
                // Spread the samples evenly; earlier rounds take the remainder.
                let total = colds[index] == nil ? configuration.samples : cases[index].coldSamples
                let share = total / rounds + (round < total % rounds ? 1 : 0)
                if let cold = colds[index] {
                    for _ in 0..<share {
                        cold.evict()
                        let start = MonotonicClock.now()
                        cold.operation()
                        let elapsed = MonotonicClock.now() - start
                        samples[index].append(max(0, Double(elapsed) - clockCost))
                    }
                } else {
                    let body = bodies[index]
                    let count = iterations[index]
                    _ = time(body, count)  // re-warm caches after the other cases ran
                    for _ in 0..<share {
                        samples[index].append(Double(time(body, count)) / Double(count))
                    }
                }
                progress(index, Double(round * cases.count + index + 1) / Double(rounds * cases.count))
            }
        }
        return cases.indices.map { index in
            var counts: CountsPerOperation?
            if Counters.areAvailable && configuration.countingIterations > 0 && cases[index].isCounted {
                counts = Self.countsPerOperation(
                    of: bodies[index], iterations: configuration.countingIterations(for: cases[index]))
            }
            return CaseMeasurement(
                iterations: iterations[index], nanosecondsPerOperation: Summary(samples[index]),
                countsPerOperation: counts, heapBytesPerUnit: cases[index].heapGrowthPerUnit?())
        }
    }

    /// Counts the calls `body` makes over `iterations` operations, per operation.
    public static func countsPerOperation(of body: (Int) -> Void, iterations: Int) -> CountsPerOperation {
        let reading = Counters.count { body(iterations) }
        return CountsPerOperation(reading, iterations: iterations)
    }

    /// What reading the clock twice costs, in nanoseconds: the median of 1 001
    /// back-to-back pairs, subtracted from each operation timed on its own.
    public static func clockCost() -> Double {
        var pairs: [Double] = []
        for _ in 0..<1001 {
            let start = MonotonicClock.now()
            pairs.append(Double(MonotonicClock.now() - start))
        }
        return pairs.sorted()[pairs.count / 2]
    }

    /// Runs the body for the warm-up time, then finds the iterations that
    /// make one sample last about the configured sample time.
    internal func calibrate(_ body: (Int) -> Void) -> Int {
        let warmUpEnd = MonotonicClock.now() + UInt64(configuration.warmUpMilliseconds * 1e6)
        var iterations = 1
        var elapsed = time(body, iterations)
        while MonotonicClock.now() < warmUpEnd || elapsed < 100_000 {
            if elapsed < 100_000 { iterations = iterations < 1 << 40 ? iterations * 2 : iterations }
            elapsed = time(body, iterations)
        }
        let target = configuration.sampleTimeMilliseconds * 1e6
        let perIteration = Double(elapsed) / Double(iterations)
        return max(1, Int((target / max(perIteration, 0.001)).rounded()))
    }

    @inline(__always)
    internal func time(_ body: (Int) -> Void, _ iterations: Int) -> UInt64 {
        let start = MonotonicClock.now()
        body(iterations)
        return MonotonicClock.now() - start
    }
}
