import FanoutMicrobench

/// A benchmark family: one file that names its cases and the strategies and
/// peers they measure, the cases the gate counts, which cases fresh processes
/// measure again and which the cold pass counts, declares its charts and
/// writes its lines of the run's summary. Adding a family is that file and one
/// line in ``BenchmarkFamilies/all``; the gate and the run ask the registry.
protocol BenchmarkFamily: SendableMetatype {
    /// The names the family puts in the CSV's `strategy` column, for
    /// `--strategies` and the docs.
    static var contenders: [String] { get }

    /// The cases this process measures for `selection` (before `--strategies`
    /// and `--filter`, which apply to every family alike).
    static func cases(_ selection: Selection) -> [BenchmarkCase]

    /// The cases the regression gate counts (`bench check`): exact counts, so
    /// each is measured by callgrind in one child process.
    static var gateCases: [BenchmarkCase] { get }

    /// Whether a run measures `id` again in fresh processes (`bench repeat`),
    /// its figure a mean over them.
    static func isRepeated(_ id: CaseID) -> Bool

    /// Whether `id` is published (the summary, the decision guide, the
    /// README): a repeated case measured in every fresh process, not a share.
    static func isPublished(_ id: CaseID, _ selection: Selection) -> Bool

    /// Whether the cold pass counts the case's cache misses under callgrind.
    static func countsCacheMisses(_ benchmarkCase: BenchmarkCase) -> Bool

    /// The case whose time the gate prints beside `benchmarkCase`'s as its
    /// reference, when this family gives one.
    static func gateReference(for benchmarkCase: BenchmarkCase) -> BenchmarkCase?

    /// The cost, in ns, of the machine primitive `name` ("atomicPair") from a run's rows, when the family
    /// measures it.
    static func primitiveCost(_ name: String, in rows: [ResultRow]) -> Double?

    /// The charts `scripts/plot` draws from the family's rows.
    static var charts: [ChartSpec] { get }

    /// The part the family's rows play in the decision guide, if any, and the `benchmark` name of those rows.
    static var guidePart: (part: GuidePart, benchmark: String)? { get }

    /// The family's lines of the one-screen summary, from the run's rows.
    static func summary(of rows: [ResultRow], selection: Selection) -> [String]
}

extension BenchmarkFamily {
    static var gateCases: [BenchmarkCase] { [] }
    static func isRepeated(_ id: CaseID) -> Bool { false }
    static func isPublished(_ id: CaseID, _ selection: Selection) -> Bool { false }
    static func countsCacheMisses(_ benchmarkCase: BenchmarkCase) -> Bool { false }
    static func gateReference(for benchmarkCase: BenchmarkCase) -> BenchmarkCase? { nil }
    static func primitiveCost(_ name: String, in rows: [ResultRow]) -> Double? { nil }
    static var charts: [ChartSpec] { [] }
    static var guidePart: (part: GuidePart, benchmark: String)? { nil }
    static func summary(of rows: [ResultRow], selection: Selection) -> [String] { [] }
}

/// The parts of the decision guide (``DecisionGuide``), each played by one family's rows: the guide names no family.
enum GuidePart: CaseIterable {
    /// Each strategy's warm cost per delivery, with the C floor beside it: the table's figures.
    case warm
    /// The cost of a delivery that finds its targets out of cache.
    case cold
    /// The cost under contention, for the concurrent need.
    case contention
    /// The cost of forwarding a message named at run time, beside the typed dispatch.
    case forwarding
    /// The share of a delivery that dispatch takes when each callback does real work.
    case work
}

/// The registry of families, in run order.
enum BenchmarkFamilies {
    static let all: [any BenchmarkFamily.Type] = [
        PrimitivesFamily.self,
        DispatchFamily.self,
        ArityFamily.self,
        StaticFanOutFamily.self,
        PeerFamily.self,
        ObjCPeerFamily.self,
        ForwardFamily.self,
        ColdFamily.self,
        WorkFamily.self,
        SetupFamily.self,
        EndToEndFamily.self,
        ChainFamily.self,
        MemoryFamily.self,
        ContentionFamily.self,
    ] + (ToyFamily.isRegistered ? [ToyFamily.self] : [])

    /// Every name a row's `strategy` column can hold.
    static var contenders: [String] {
        var seen = Set<String>()
        return all.flatMap { $0.contenders }.filter { seen.insert($0).inserted }
    }

    /// Every family's charts.
    static var charts: [ChartSpec] { all.flatMap { $0.charts } }

    /// Every family's gate cases, in family order.
    static var gateCases: [BenchmarkCase] { all.flatMap { $0.gateCases } }

    static func isRepeated(_ id: CaseID) -> Bool { all.contains { $0.isRepeated(id) } }

    static func isPublished(_ id: CaseID, _ selection: Selection) -> Bool {
        all.contains { $0.isPublished(id, selection) }
    }

    static func countsCacheMisses(_ benchmarkCase: BenchmarkCase) -> Bool {
        all.contains { $0.countsCacheMisses(benchmarkCase) }
    }

    static func primitiveCost(_ name: String, in rows: [ResultRow]) -> Double? {
        all.lazy.compactMap { $0.primitiveCost(name, in: rows) }.first
    }

    static func gateReference(for benchmarkCase: BenchmarkCase) -> BenchmarkCase? {
        all.lazy.compactMap { $0.gateReference(for: benchmarkCase) }.first
    }

    /// The `benchmark` name of the rows that play `part` in the decision guide.
    static func benchmark(for part: GuidePart) -> String {
        let players = all.compactMap { $0.guidePart }.filter { $0.part == part }
        precondition(players.count == 1, "the decision guide's \(part) part needs one registered family, not \(players.count)")
        return players[0].benchmark
    }

    /// Into how many shares a run's `processes` fresh processes divide the repeated cases that are not published:
    /// one share per process in turn, so that each such case is measured in about ten processes, and its figure too
    /// is a mean over processes, while the published ones get all of them.
    static func otherCaseShares(of processes: Int) -> Int {
        max(1, processes / 10)
    }

    /// In how many of a run's `processes` fresh processes a repeated case that is not published is measured (one
    /// more for some cases where `processes` is not a multiple of ``otherCaseShares(of:)``).
    static func processesPerOtherCase(of processes: Int) -> Int {
        processes / otherCaseShares(of: processes)
    }

    /// The cases fresh process `process` (1 … `processes`) measures: every published case, and one share of the
    /// others (``otherCaseShares(of:)``), a different share in each process in turn.
    static func repeatedCases(_ selection: Selection, process: Int, of processes: Int) -> [BenchmarkCase] {
        let shares = otherCaseShares(of: processes)
        var others = 0
        return selection.cases().filter { item in
            guard isRepeated(item.id) else { return false }
            if isPublished(item.id, selection) { return true }
            defer { others += 1 }
            return others % shares == process % shares
        }
    }
}
