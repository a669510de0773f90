/// One measured case: a labelled piece of work and how to set it up.
///
/// `setUp` runs once, outside every measurement, and returns the body: a
/// closure that performs the operation `iterations` times. Put only the
/// operation in the loop, and pass what it produces to ``blackHole(_:)``.
///
/// ```swift
/// BenchmarkCase(benchmark: "dispatch", strategy: "closureTable", message: "didScroll",
///               width: 64, responders: 64, deliveriesPerOperation: 64) {
///     let multiplexer = makeMultiplexer(width: 64)
///     return { iterations in
///         for _ in 0..<iterations { multiplexer.scrollViewDidScroll(view) }
///     }
/// }
/// ```
public struct BenchmarkCase {
    /// The benchmark family, such as `dispatch` or `setup`.
    public var benchmark: String
    /// The strategy or peer measured.
    public var strategy: String
    /// The message sent, or the operation measured.
    public var message: String
    /// The fan-out width (or depth, or count) of the case.
    public var width: Int
    /// How many of the targets respond.
    public var responders: Int
    /// How many deliveries one operation makes; divides ns per operation into
    /// ns per delivery.
    public var deliveriesPerOperation: Int
    /// Builds the case's state and returns its body.
    public var setUp: () -> (_ iterations: Int) -> Void
    /// For memory cases: builds the measured structure once, outside timing,
    /// and returns how many bytes the heap grew by per unit (reported as
    /// `heap_bytes_per_unit`); `nil` for other cases.
    public var heapGrowthPerUnit: (() -> Double)?
    /// Whether the counters describe the case: `false` for code whose
    /// reference counting is not Swift's (an Objective-C peer), so that its
    /// rows leave the counter columns empty rather than show zeros.
    public var isCounted: Bool
    /// For cold cases: builds the case's state and returns how to evict it
    /// from the caches and the operation to time. Each sample then evicts,
    /// untimed, and times one operation on its own. `nil` for warm cases.
    public var coldSetUp: (() -> ColdBody)?
    /// The timed samples of a cold case (its operations are timed one by one).
    public var coldSamples = 0
    /// Whether the gate counts the case's instructions: `false` for code whose count depends on what else the process
    /// ran (unspecialized generic code, whose metadata lookups probe the runtime's caches), so that a filtered check
    /// measures what the full one does. Its allocations and ARC calls are gated either way.
    public var countsInstructions = true

    public init(
        benchmark: String, strategy: String, message: String, width: Int, responders: Int,
        deliveriesPerOperation: Int, heapGrowthPerUnit: (() -> Double)? = nil, isCounted: Bool = true,
        setUp: @escaping () -> (_ iterations: Int) -> Void
    ) {
        self.heapGrowthPerUnit = heapGrowthPerUnit
        self.isCounted = isCounted
        self.benchmark = benchmark
        self.strategy = strategy
        self.message = message
        self.width = width
        self.responders = responders
        self.deliveriesPerOperation = deliveriesPerOperation
        self.setUp = setUp
    }

    /// A case named `id`.
    public init(
        _ id: CaseID, deliveriesPerOperation: Int, heapGrowthPerUnit: (() -> Double)? = nil, isCounted: Bool = true,
        setUp: @escaping () -> (_ iterations: Int) -> Void
    ) {
        self.init(
            benchmark: id.benchmark, strategy: id.strategy, message: id.message, width: id.width,
            responders: id.responders, deliveriesPerOperation: deliveriesPerOperation,
            heapGrowthPerUnit: heapGrowthPerUnit, isCounted: isCounted, setUp: setUp)
    }

    /// A cold case named `id`: `samples` operations, each timed on its own
    /// after `evict` has run untimed. Its counting pass runs the operation
    /// warm, as other cases do.
    public init(cold id: CaseID, deliveriesPerOperation: Int, samples: Int, setUp: @escaping () -> ColdBody) {
        self.init(id, deliveriesPerOperation: deliveriesPerOperation) {
            let body = setUp()
            return { iterations in for _ in 0..<iterations { body.operation() } }
        }
        coldSetUp = setUp
        coldSamples = samples
    }

    /// The case's identity.
    public var id: CaseID {
        CaseID(benchmark: benchmark, strategy: strategy, message: message, width: width, responders: responders)
    }

    /// The case's name, which `--filter` matches: `benchmark/strategy/message/width/responders`.
    public var name: String { id.name }
}

/// What a cold case times: `operation`, after `evict` has put its memory out
/// of the caches.
public struct ColdBody {
    public var evict: () -> Void
    public var operation: () -> Void

    public init(evict: @escaping () -> Void, operation: @escaping () -> Void) {
        self.evict = evict
        self.operation = operation
    }
}
