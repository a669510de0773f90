import Foundation
import FanoutMicrobench

/// Runs cases and reports progress on standard error: a live line on a
/// terminal, a line per case and round otherwise.
struct ProgressReporter {
    let enabled: Bool
    let isTerminal = isatty(STDERR_FILENO) != 0

    /// - Parameter metadata: What the rows name (commit, CPU, time): one value for every pass of a run, so that
    ///   its rows read as one run.
    func run(_ cases: [BenchmarkCase], runner: Runner, metadata: RunMetadata = .current()) -> [ResultRow] {
        let start = MonotonicClock.now()
        let measurements = runner.measure(cases) { index, fractionDone in
            guard enabled else { return }
            let percent = Report.fixed(fractionDone * 100, decimals: 1)
            write(isTerminal
                ? "\r\u{1B}[K[\(percent)%] \(cases[index].name)"
                : "[\(percent)%] \(cases[index].name)\n")
        }
        if enabled {
            let seconds = Double(MonotonicClock.now() - start) / 1e9
            let clear = isTerminal ? "\r\u{1B}[K" : ""
            write("\(clear)measured \(cases.count) cases in \(Report.fixed(seconds, decimals: 1)) s\n")
        }
        return zip(cases, measurements).map { ResultRow($0, $1, metadata: metadata) }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
