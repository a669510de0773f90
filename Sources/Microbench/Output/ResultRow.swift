/// One row of the results CSV: a case, its measurements, and the run's
/// metadata. The CSV header is ``ResultRow/columns``, in that order.
public struct ResultRow: Equatable, Sendable {
    public var benchmark: String
    public var strategy: String
    public var message: String
    public var width: Int
    public var responders: Int
    public var samples: Int
    public var iterations: Int
    public var nanosecondsPerOperationMedian: Double
    public var nanosecondsPerOperationP10: Double
    public var nanosecondsPerOperationP90: Double
    public var nanosecondsPerOperationMinimum: Double
    /// Median ns per operation ÷ deliveries per operation.
    public var nanosecondsPerDelivery: Double
    /// Deliveries per second at the median.
    public var deliveriesPerSecond: Double
    /// `nil` when the binary has no counting hooks (empty in the CSV).
    public var counts: CountsPerOperation?
    /// MAD ÷ median of the samples.
    public var relativeSpread: Double
    /// Heap growth per unit (memory cases only; empty in the CSV otherwise).
    public var heapBytesPerUnit: Double?
    /// Cold cases only: last-level data misses per delivery in callgrind's
    /// cache simulation (``CacheMissPass``); empty in the CSV otherwise.
    public var cacheMissesPerDelivery: Double?
    /// The cases of a run measured in several processes (``ProcessFigure``): how many processes measured
    /// the case, how far their medians spread, and how many were set aside as slowed; `nil` (empty in the CSV) for
    /// a case measured in one process. The median columns then hold the figure over the processes (``ProcessFigure``).
    public var processes: Int?
    public var processSpread: Double?
    public var slowedProcesses: Int?
    /// How far the figure can be trusted (``RerunInterval``): the relative half-width of the interval that a rerun
    /// of the same build on the same machine falls inside nine times out of ten, and how many full runs recorded
    /// for the CPU its between-run part came from (0: it covers this run's processes only); `nil` (empty) for a
    /// case measured in one process.
    public var interval: Double?
    public var intervalRuns: Int?
    /// How far the figure moved over the run: its last time block of processes over its first, minus 1; `nil`
    /// (empty) for a case measured in one process.
    public var drift: Double?
    /// How many full runs the figure is the mean of (`bench combine`); `nil` (empty) for one run.
    public var runs: Int?
    public var metadata: RunMetadata

    /// The CSV header. The first seventeen columns are the stable interface;
    /// metadata follows.
    public static let columns =
        CaseID.columns + [
            "samples", "iterations",
            "ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90", "ns_per_op_min", "ns_per_delivery",
            "deliveries_per_second", "mallocs_per_op", "bytes_per_op", "retains_per_op", "releases_per_op",
            "spread_mad_over_median", "heap_bytes_per_unit", "cache_misses_per_delivery",
        ] + processColumns + intervalColumns + RunMetadata.columns

    /// The columns of a case measured in several processes, which a results CSV written before them lacks.
    public static let processColumns = ["processes", "process_spread", "slowed_processes"]

    /// The columns of how far a figure can be trusted, which a results CSV written before them lacks.
    public static let intervalColumns = ["interval", "interval_runs", "drift", "runs"]

    public init(
        benchmark: String, strategy: String, message: String, width: Int, responders: Int, samples: Int,
        iterations: Int, nanosecondsPerOperationMedian: Double, nanosecondsPerOperationP10: Double,
        nanosecondsPerOperationP90: Double, nanosecondsPerOperationMinimum: Double, nanosecondsPerDelivery: Double,
        deliveriesPerSecond: Double, counts: CountsPerOperation?, relativeSpread: Double,
        heapBytesPerUnit: Double? = nil, cacheMissesPerDelivery: Double? = nil, processes: Int? = nil,
        processSpread: Double? = nil, slowedProcesses: Int? = nil, interval: Double? = nil, intervalRuns: Int? = nil,
        drift: Double? = nil, runs: Int? = nil, metadata: RunMetadata
    ) {
        self.interval = interval
        self.intervalRuns = intervalRuns
        self.drift = drift
        self.runs = runs
        self.processes = processes
        self.processSpread = processSpread
        self.slowedProcesses = slowedProcesses
        self.heapBytesPerUnit = heapBytesPerUnit
        self.cacheMissesPerDelivery = cacheMissesPerDelivery
        self.benchmark = benchmark
        self.strategy = strategy
        self.message = message
        self.width = width
        self.responders = responders
        self.samples = samples
        self.iterations = iterations
        self.nanosecondsPerOperationMedian = nanosecondsPerOperationMedian
        self.nanosecondsPerOperationP10 = nanosecondsPerOperationP10
        self.nanosecondsPerOperationP90 = nanosecondsPerOperationP90
        self.nanosecondsPerOperationMinimum = nanosecondsPerOperationMinimum
        self.nanosecondsPerDelivery = nanosecondsPerDelivery
        self.deliveriesPerSecond = deliveriesPerSecond
        self.counts = counts
        self.relativeSpread = relativeSpread
        self.metadata = metadata
    }

    /// The row for a measured case.
    public init(_ benchmarkCase: BenchmarkCase, _ measurement: CaseMeasurement, metadata: RunMetadata) {
        let time = measurement.nanosecondsPerOperation
        let deliveries = Double(max(benchmarkCase.deliveriesPerOperation, 1))
        self.init(
            benchmark: benchmarkCase.benchmark, strategy: benchmarkCase.strategy, message: benchmarkCase.message,
            width: benchmarkCase.width, responders: benchmarkCase.responders, samples: time.count,
            iterations: measurement.iterations, nanosecondsPerOperationMedian: time.median,
            nanosecondsPerOperationP10: time.p10, nanosecondsPerOperationP90: time.p90,
            nanosecondsPerOperationMinimum: time.minimum, nanosecondsPerDelivery: time.median / deliveries,
            deliveriesPerSecond: time.median > 0 ? deliveries * 1e9 / time.median : 0,
            counts: measurement.countsPerOperation, relativeSpread: time.relativeSpread,
            heapBytesPerUnit: measurement.heapBytesPerUnit, metadata: metadata)
    }

    /// This row with the figure of its case measured in several processes: the median columns from `figure`, the
    /// other timing columns from `representative`, the row of the kept process whose median is nearest it, its
    /// percentiles scaled by the figure over its median so that they stay on their side of the figure.
    public func merged(_ figure: ProcessFigure, representative: ResultRow) -> ResultRow {
        var row = self
        row.samples = representative.samples
        row.iterations = representative.iterations
        row.nanosecondsPerOperationMedian = figure.figure
        let scale =
            representative.nanosecondsPerOperationMedian > 0
            ? figure.figure / representative.nanosecondsPerOperationMedian : 1
        row.nanosecondsPerOperationP10 = representative.nanosecondsPerOperationP10 * scale
        row.nanosecondsPerOperationP90 = representative.nanosecondsPerOperationP90 * scale
        row.nanosecondsPerOperationMinimum = representative.nanosecondsPerOperationMinimum * scale
        row.nanosecondsPerDelivery = figure.figure / Double(deliveriesPerOperation)
        row.deliveriesPerSecond = row.nanosecondsPerDelivery > 0 ? 1e9 / row.nanosecondsPerDelivery : 0
        row.relativeSpread = representative.relativeSpread
        row.processes = figure.values.count
        row.processSpread = figure.spread
        row.slowedProcesses = figure.slowed.count
        return row
    }

    /// The deliveries per operation of the row's case, as its columns divide them (1 when they cannot say).
    public var deliveriesPerOperation: Int {
        guard nanosecondsPerDelivery > 0 else { return 1 }
        return max(1, Int((nanosecondsPerOperationMedian / nanosecondsPerDelivery).rounded()))
    }

    /// The case's identity.
    public var id: CaseID {
        CaseID(benchmark: benchmark, strategy: strategy, message: message, width: width, responders: responders)
    }

    /// The case's name, which `--filter` matches: `benchmark/strategy/message/width/responders`.
    public var name: String { id.name }
}

/// Facts about the run that produced a row.
public struct RunMetadata: Equatable, Sendable {
    public var swiftVersion: String
    /// The commit measured, with `-dirty` when the work tree had changes.
    public var commit: String
    public var host: String
    public var cpu: String
    /// ISO 8601, UTC.
    public var timestamp: String
    /// `release` or `debug`.
    public var build: String

    public static let columns = ["swift_version", "commit", "host", "cpu", "timestamp", "build"]

    public init(swiftVersion: String, commit: String, host: String, cpu: String, timestamp: String, build: String) {
        self.swiftVersion = swiftVersion
        self.commit = commit
        self.host = host
        self.cpu = cpu
        self.timestamp = timestamp
        self.build = build
    }

    var values: [String] { [swiftVersion, commit, host, cpu, timestamp, build] }

    /// What tells this measurement's code and machine from `other`'s, in the order a message names them: the
    /// commit, CPU, Swift and build that differ, each as (what, this one's, the other's). Empty when the two measured
    /// the same build on the same CPU model.
    public func differences(from other: RunMetadata) -> [(what: String, this: String, other: String)] {
        [
            ("commit", commit, other.commit), ("CPU", cpu, other.cpu), ("Swift", swiftVersion, other.swiftVersion),
            ("build", build, other.build),
        ].filter { $0.1 != $0.2 }
    }
}
