import Foundation
import FanoutMicrobench

/// Runs cases and reports the pass as one ``PhaseProgress``.
struct ProgressReporter {
    let enabled: Bool

    /// Measures `cases`, family by family (each family's cases interleaved over the rounds) or all at once, and
    /// hands each family's rows to `completed` as soon as they are measured: what a run keeps in its checkpoint.
    ///
    /// - Parameters:
    ///   - title: What the pass does, for its progress line ("measuring 120 cases").
    ///   - metadata: What the rows name (commit, CPU, time): one value for every pass of a run, so that its rows read
    ///     as one run.
    @discardableResult
    func run(
        _ cases: [BenchmarkCase], runner: Runner, title: String? = nil, metadata: RunMetadata = .current(),
        familyByFamily: Bool = true, completed: ([ResultRow]) -> Void = { _ in }
    ) -> [ResultRow] {
        guard !cases.isEmpty else { return [] }
        let title = title ?? "measuring \(cases.count) cases"
        let progress = PhaseProgress(title, total: cases.count, enabled: enabled)
        // Family by family: each run of consecutive cases of one benchmark.
        var groups: [[BenchmarkCase]] = familyByFamily ? [] : [cases]
        for benchmarkCase in cases where familyByFamily {
            if let last = groups.last?.last, last.id.benchmark == benchmarkCase.id.benchmark {
                groups[groups.count - 1].append(benchmarkCase)
            } else {
                groups.append([benchmarkCase])
            }
        }
        var rows: [ResultRow] = []
        for group in groups {
            let before = Double(rows.count)
            let measurements = runner.measure(group, progress: { index, fractionDone in
                let fraction = (before + fractionDone * Double(group.count)) / Double(cases.count)
                progress.update(fraction: fraction, current: group[index].name)
            })
            let groupRows = zip(group, measurements).map { ResultRow($0, $1, metadata: metadata) }
            rows += groupRows
            completed(groupRows)
        }
        progress.finish("\(title): done in \(PhaseProgress.duration(progress.elapsed))")
        return rows
    }
}
