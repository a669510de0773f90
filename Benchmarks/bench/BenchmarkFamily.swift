import FanoutMicrobench

/// A benchmark family: one file that names its cases and the strategies and
/// peers they measure, declares its charts and writes its lines of the run's
/// summary. Adding a family is that file and one line in ``BenchmarkFamilies/all``.
protocol BenchmarkFamily: SendableMetatype {
    /// The names the family puts in the CSV's `strategy` column, for
    /// `--strategies` and the docs.
    static var contenders: [String] { get }

    /// The cases this process measures for `selection` (before `--strategies`
    /// and `--filter`, which apply to every family alike).
    static func cases(_ selection: Selection) -> [BenchmarkCase]

    /// The charts `scripts/plot` draws from the family's rows.
    static var charts: [ChartSpec] { get }

    /// The family's lines of the one-screen summary, from the run's rows.
    static func summary(of rows: [ResultRow], selection: Selection) -> [String]
}

extension BenchmarkFamily {
    static var charts: [ChartSpec] { [] }
    static func summary(of rows: [ResultRow], selection: Selection) -> [String] { [] }
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
    ]

    /// Every name a row's `strategy` column can hold.
    static var contenders: [String] {
        var seen = Set<String>()
        return all.flatMap { $0.contenders }.filter { seen.insert($0).inserted }
    }

    /// Every family's charts.
    static var charts: [ChartSpec] { all.flatMap { $0.charts } }
}
