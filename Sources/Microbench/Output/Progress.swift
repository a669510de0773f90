import FanoutMicrobenchCounters
import Foundation

/// One phase of a run (a pass over the cases, the fresh processes), reported on standard error as a person reads
/// it: on a terminal, one live line with the count done and an estimate of the time left; on a log, one line each
/// time another tenth of the phase is done, so that a phase writes at most ten lines whatever its length.
public final class PhaseProgress {
    public let title: String
    public let total: Int
    public let enabled: Bool
    public let isTerminal: Bool
    private let start = MonotonicClock.now()
    /// The tenths of the phase reported so far on a log.
    private var tenthsReported = 0

    public init(_ title: String, total: Int, enabled: Bool, isTerminal: Bool = isatty(STDERR_FILENO) != 0) {
        self.title = title
        self.total = total
        self.enabled = enabled
        self.isTerminal = isTerminal
    }

    /// Seconds since the phase began.
    public var elapsed: Double { Double(MonotonicClock.now() - start) / 1e9 }

    /// Reports that `fraction` of the phase is done, `done` of its `total` steps when they are counted, with what
    /// runs now (`current`), which only a terminal shows.
    public func update(fraction: Double, done: Int? = nil, current: String = "") {
        guard enabled, total > 0 else { return }
        let fraction = min(max(fraction, 0), 1)
        let line =
            title + (done.map { ": \($0) of \(total)" } ?? "") + Self.estimate(elapsed: elapsed, fraction: fraction)
        if isTerminal {
            writeNote("\r\u{1B}[K" + line + (current.isEmpty ? "" : " · \(current)"), newline: false)
        } else if Int(fraction * 10) > tenthsReported, fraction < 1 {
            tenthsReported = Int(fraction * 10)
            writeNote(line)
        }
    }

    /// Ends the phase with `summary` on a line of its own (replacing the live line on a terminal).
    public func finish(_ summary: String) {
        guard enabled else { return }
        writeNote((isTerminal ? "\r\u{1B}[K" : "") + summary)
    }

    /// " (40 %, about 2 min 10 s left)": the share done and the time left at the pace so far; the share alone before
    /// anything is done.
    public static func estimate(elapsed: Double, fraction: Double) -> String {
        let percent = " (\(Int((fraction * 100).rounded(.down))) %"
        guard fraction > 0, fraction < 1 else { return percent + ")" }
        return percent + ", about \(duration(elapsed * (1 - fraction) / fraction)) left)"
    }

    /// A duration a person reads: "45 s", "2 min 10 s", "1 h 5 min".
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole / 60 % 60) min"
    }
}

/// Writes `text` to standard error once what standard output holds is written, so that a note never lands inside
/// the summary when both go to one file.
public func writeNote(_ text: String, newline: Bool = true) {
    fflush(nil)  // every C stream, standard output among them: `print` writes there
    FileHandle.standardError.write(Data((newline ? text + "\n" : text).utf8))
}

/// Exits 2, saying why, when what this process printed did not reach its standard output (a full disk, a closed
/// pipe): a command whose output was lost must not exit 0.
public func exitIfStandardOutputFailed() {
    let error = microbench_flush_standard_output()
    guard error != 0 else { return }
    FileHandle.standardError.write(
        Data("error: could not write standard output: \(String(cString: strerror(error)))\n".utf8))
    exit(2)
}
