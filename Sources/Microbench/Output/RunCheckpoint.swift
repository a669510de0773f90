import Foundation

/// What a run has measured so far, kept in a file beside its output while it runs (`results.csv` →
/// `results.partial.json`), so that nothing measured is lost to Ctrl-C, a signal or a full disk: each pass's rows
/// once the pass (or a family of it) is done, each fresh process's rows as soon as it ends. `bench --resume FILE`
/// reads it back, measures only what it lacks, writes the complete output, and removes it.
public struct RunCheckpoint: Codable, Equatable, Sendable {
    /// The format of the file, checked when it is read.
    public static let currentFormat = "fanout-bench-partial/1"

    public var format = RunCheckpoint.currentFormat
    /// The run's arguments, without `run` and `--resume`: a resumed run measures the same selection the same way.
    public var arguments: [String]
    /// Where the complete results go.
    public var output: String
    /// What the rows name (commit, CPU, Swift, build, host, the run's start), the same for both parts of a resumed run.
    public var commit: String
    public var cpu: String
    public var swiftVersion: String
    public var build: String
    public var host: String
    public var timestamp: String
    /// A fingerprint of the executable that measured (``Subprocess/executableFingerprint()``).
    public var binary: String
    /// The rows the run's own passes measured, as a results CSV; `""` before the first is done.
    public var rows = ""
    /// Whether the cold cases' cache misses were counted into ``rows``.
    public var cacheMissesCounted = false
    /// The rows of each fresh process that ended well, as a results CSV, by seed.
    public var processes: [String: String] = [:]
    /// The fresh processes that failed, each named as the run's note names it.
    public var failures: [String] = []

    public init(arguments: [String], output: String, metadata: RunMetadata, binary: String) {
        self.arguments = arguments
        self.output = output
        commit = metadata.commit
        cpu = metadata.cpu
        swiftVersion = metadata.swiftVersion
        build = metadata.build
        host = metadata.host
        timestamp = metadata.timestamp
        self.binary = binary
    }

    /// The metadata every row of the run names.
    public var metadata: RunMetadata {
        RunMetadata(
            swiftVersion: swiftVersion, commit: commit, host: host, cpu: cpu, timestamp: timestamp, build: build)
    }

    /// Where the checkpoint of a run writing `output` goes: beside it, `results.csv` → `results.partial.json`.
    public static func path(forOutput output: String) -> String {
        (output.hasSuffix(".csv") ? String(output.dropLast(4)) : output) + ".partial.json"
    }

    /// A checkpoint that cannot be resumed: the file and why.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the checkpoint at `path`.
    ///
    /// - Throws: ``Refusal`` naming the file when it cannot be read, is not a checkpoint of this format, or its
    ///   rows are not a results CSV.
    public static func read(_ path: String) throws(Refusal) -> RunCheckpoint {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Refusal(description: "\(path): \(error.localizedDescription)")
        }
        let checkpoint: RunCheckpoint
        do { checkpoint = try JSONDecoder().decode(RunCheckpoint.self, from: data) } catch {
            throw Refusal(description: "\(path): not a checkpoint of a run (\(error))")
        }
        guard checkpoint.format == currentFormat else {
            throw Refusal(description: "\(path): a checkpoint of format '\(checkpoint.format)', not '\(currentFormat)'")
        }
        do {
            _ = try checkpoint.passRows(file: path)
            _ = try checkpoint.processRows(file: path)
        } catch {
            throw Refusal(description: error.description)
        }
        return checkpoint
    }

    /// The rows of the run's own passes.
    public func passRows(file: String) throws(CSV.ParseError) -> [ResultRow] {
        rows.isEmpty ? [] : try CSV.parse(rows, file: "\(file) (its rows)")
    }

    /// The rows of each fresh process that ended well, by seed.
    public func processRows(file: String) throws(CSV.ParseError) -> [Int: [ResultRow]] {
        var result: [Int: [ResultRow]] = [:]
        for (seed, text) in processes {
            guard let number = Int(seed), number > 0 else {
                throw CSV.ParseError(file: file, line: 1, reason: "a process named '\(seed)', not a seed")
            }
            result[number] = try CSV.parse(text, file: "\(file) (process \(seed))")
        }
        return result
    }

    /// Why a run here cannot go on from this checkpoint: the commit, CPU, Swift, build or executable that differ
    /// from `metadata` and `binary`; `nil` when none does.
    public func difference(from metadata: RunMetadata, binary: String) -> String? {
        var pairs = self.metadata.differences(from: metadata)
        if self.binary != binary { pairs.append(("executable", self.binary, binary)) }
        let differences = pairs.map { "\($0.what) \($0.this) then, \($0.other) here" }
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }
}

/// The file of a run's ``RunCheckpoint``, written atomically at every step and by a signal's handler from another
/// thread: every access holds its lock, so the file is never written twice at once, and an interrupted run exits
/// only once it is whole.
public final class CheckpointFile: @unchecked Sendable {
    public let path: String
    private let state: Locked<RunCheckpoint>
    /// Whether a write failed already (warned once: the run goes on, and says at its end where its results went).
    private let failed = Locked(false)

    public init(path: String, checkpoint: RunCheckpoint) {
        self.path = path
        state = Locked(checkpoint)
    }

    /// The checkpoint as it stands.
    public var checkpoint: RunCheckpoint { state.withLock { $0 } }

    /// Writes the checkpoint as it stands, throwing what stops it: a run does so before it measures anything, so that
    /// a run that could not keep what it measures stops at once.
    public func writeNow() throws {
        try state.withLock { checkpoint in try Self.write(checkpoint, to: path) }
    }

    /// Writes the checkpoint where it can: its own path, or else the temporary directory. Returns where it went, or
    /// `nil` when neither took it: what a run does when it cannot write its results.
    public func keep() -> String? {
        state.withLock { checkpoint in
            let fallback = FileManager.default.temporaryDirectory
                .appendingPathComponent("fanout-\(getpid())-" + URL(fileURLWithPath: path).lastPathComponent).path
            return [path, fallback].first { (try? Self.write(checkpoint, to: $0)) != nil }
        }
    }

    /// When the file was last written, in monotonic nanoseconds.
    private var lastWrite: UInt64 = 0

    /// Changes the checkpoint and writes it; with `atMostEvery` seconds, only if the last write is older, so that a
    /// step that ends often (a fresh process, every second or two) does not rewrite a file of megabytes each time:
    /// a signal's handler writes what is kept in memory meanwhile (``finish(_:)``). A write that fails is reported
    /// once on standard error, and the run goes on: its results are still written at its end.
    public func update(atMostEvery seconds: Double = 0, _ change: (inout RunCheckpoint) -> Void) {
        state.withLock { checkpoint in
            change(&checkpoint)
            let now = MonotonicClock.now()
            guard seconds == 0 || Double(now - lastWrite) / 1e9 >= seconds else { return }
            lastWrite = now
            write(checkpoint)
        }
    }

    /// Writes the checkpoint as it stands, and holds the lock until `body` has run: what a signal's handler does
    /// before it exits, so that no step writes it meanwhile.
    public func finish<Value>(_ body: (RunCheckpoint) -> Value) -> Value {
        state.withLock { checkpoint in
            write(checkpoint)
            return body(checkpoint)
        }
    }

    /// Removes the file: the run's complete results are written.
    public func remove() {
        state.withLock { _ in _ = unlink(path) }
    }

    private static func write(_ checkpoint: RunCheckpoint, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(String(decoding: try encoder.encode(checkpoint), as: UTF8.self) + "\n", to: path)
    }

    private func write(_ checkpoint: RunCheckpoint) {
        do {
            try Self.write(checkpoint, to: path)
        } catch {
            let first = failed.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if first {
                writeNote("warning: could not keep what the run measured in \(path): \(error.localizedDescription)")
            }
        }
    }
}
