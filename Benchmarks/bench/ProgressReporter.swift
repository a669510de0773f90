import Foundation
import FanoutMicrobench

/// Runs cases and reports the pass as one ``PhaseProgress``.
struct ProgressReporter {
    let enabled: Bool

    /// - Parameters:
    ///   - title: What the pass does, for its progress line ("measuring 120 cases").
    ///   - metadata: What the rows name (commit, CPU, time): one value for every pass of a run, so that its rows read
    ///     as one run.
    func run(
        _ cases: [BenchmarkCase], runner: Runner, title: String? = nil, metadata: RunMetadata = .current()
    ) -> [ResultRow] {
        let title = title ?? "measuring \(cases.count) cases"
        let progress = PhaseProgress(title, total: cases.count, enabled: enabled && !cases.isEmpty)
        let measurements = runner.measure(cases) { index, fractionDone in
            progress.update(fraction: fractionDone, current: cases[index].name)
        }
        progress.finish("\(title): done in \(PhaseProgress.duration(progress.elapsed))")
        return zip(cases, measurements).map { ResultRow($0, $1, metadata: metadata) }
    }
}
