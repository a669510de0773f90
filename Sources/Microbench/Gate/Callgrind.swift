import FanoutMicrobenchCounters
import Foundation

/// Instruction counts from valgrind's callgrind, isolated with client
/// requests: the measured process dumps the costs after each region, and
/// the parent reads the dump files.
public enum Callgrind {
    /// Whether this binary can issue callgrind client requests.
    public static var isAvailable: Bool { microbench_callgrind_available() != 0 }

    /// Whether this process runs under valgrind.
    public static var isRunning: Bool { microbench_running_on_valgrind() != 0 }

    /// Writes the instructions executed since the previous dump to a new
    /// dump file labelled `label`, and zeroes the counts.
    public static func dump(_ label: String) {
        label.withCString { microbench_callgrind_dump($0) }
    }

    /// Zeroes the costs counted since the previous dump, without a dump.
    public static func zero() { microbench_callgrind_zero() }

    /// The label and every event total (`Ir`, and with `--cache-sim=yes`
    /// `D1mr`, `DLmr` …) of one dump file's text, from its `events:` and
    /// `summary:` lines; `nil` for a dump no client request triggered.
    ///
    /// - Throws: ``DumpError`` for a labelled dump without both lines, or
    ///   whose lines disagree in length or hold a value that is not a number.
    public static func parseEvents(_ text: String, file: String) throws(DumpError) -> (
        label: String, events: [String: UInt64]
    )? {
        let trigger = "desc: Trigger: Client Request: "
        var label: String?
        var names: [Substring]?
        var values: [UInt64]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix(trigger) {
                label = String(line.dropFirst(trigger.count))
            } else if line.hasPrefix("events:") {
                names = Array(line.split(separator: " ").dropFirst())
            } else if line.hasPrefix("summary:") {
                let fields = line.split(separator: " ").dropFirst()
                let numbers = fields.compactMap { UInt64($0) }
                guard numbers.count == fields.count else {
                    throw DumpError(file: file, reason: "unreadable summary '\(line)'")
                }
                values = numbers
            }
        }
        guard let label else { return nil }
        guard let names, let values else {
            throw DumpError(file: file, reason: "no events or summary in the dump of '\(label)'")
        }
        // callgrind omits trailing zero events from the summary.
        guard values.count <= names.count else { throw DumpError(file: file, reason: "more values than events") }
        var events: [String: UInt64] = [:]
        for (index, name) in names.enumerated() { events[String(name)] = index < values.count ? values[index] : 0 }
        return (label, events)
    }

    /// A dump that cannot be read as one labelled region.
    public struct DumpError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var reason: String

        public var description: String { "\(file): \(reason)" }
    }

    /// The label and instruction total of one dump file's text, or `nil` for a
    /// dump that no client request triggered (the one callgrind writes when
    /// the program exits).
    ///
    /// The label is the `desc: Trigger: Client Request: <label>` line; the
    /// total is the `summary:` line, or the `totals:` line when there is no
    /// summary (callgrind writes both, and they agree).
    ///
    /// - Throws: ``DumpError`` for a labelled dump with no total, with two
    ///   labels or two different totals, or a total that is not a number.
    public static func parseDump(_ text: String, file: String) throws(DumpError) -> (label: String, total: UInt64)? {
        let trigger = "desc: Trigger: Client Request: "
        var label: String?
        var summary: UInt64?
        var totals: UInt64?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix(trigger) {
                guard label == nil else { throw DumpError(file: file, reason: "two client-request labels in one dump") }
                label = String(line.dropFirst(trigger.count))
            } else if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                let fields = line.split(separator: " ")
                guard fields.count >= 2, let value = UInt64(fields[1]) else {
                    throw DumpError(file: file, reason: "unreadable total '\(line)'")
                }
                if line.hasPrefix("summary:") {
                    guard summary == nil || summary == value else {
                        throw DumpError(file: file, reason: "two summaries")
                    }
                    summary = value
                } else {
                    guard totals == nil || totals == value else { throw DumpError(file: file, reason: "two totals") }
                    totals = value
                }
            }
        }
        guard let label else { return nil }
        if let summary, let totals, summary != totals {
            throw DumpError(file: file, reason: "summary \(summary) and totals \(totals) disagree")
        }
        guard let total = summary ?? totals else {
            throw DumpError(file: file, reason: "no total in the dump of '\(label)'")
        }
        return (label, total)
    }

    /// The instruction totals of the dumps in `directory` whose file names
    /// start with `prefix`, by label.
    ///
    /// - Throws: When a dump cannot be read or parsed, or two dumps share a label.
    public static func totals(inDirectory directory: String, prefix: String) throws -> [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasPrefix(prefix)
        {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            guard let (label, total) = try parseDump(text, file: name) else { continue }
            guard
                totals.updateValue(total, forKey: label) == nil
                    || label == InstructionPass.warmUpLabel || label == InstructionPass.gapLabel
            else {
                throw DumpError(file: name, reason: "a second dump labelled '\(label)'")
            }
        }
        return totals
    }

    /// Runs this executable again, with `arguments` (which make the child
    /// measure under client requests), under `valgrind --tool=callgrind` with
    /// `options`, and reads the dumps it wrote with `read`, given their
    /// directory.
    ///
    /// The child runs a copy with its debug info stripped (valgrind 3.19
    /// cannot read the debug info Swift 6.3 emits) and with
    /// `SWIFT_DETERMINISTIC_HASHING=1`, so that dictionary probing is the same
    /// in every run.
    ///
    /// - Returns: What `read` returns, or why the child could not run
    ///   (valgrind missing, the binary built without `valgrind/callgrind.h`,
    ///   the child failing) or `read` failed.
    public static func runChild<Value>(
        _ arguments: [String], options: [String],
        read: (_ directory: String) throws(InstructionPass.EstimateError) -> Value
    ) -> Result<Value, InstructionPass.EstimateError> {
        guard isAvailable else {
            return .failure(
                .init(
                    description:
                        "this binary was built without valgrind/callgrind.h: install valgrind, rebuild, and run again"))
        }
        guard let valgrind = Subprocess.find("valgrind") else {
            return .failure(.init(description: "valgrind is not installed (apt-get install valgrind)"))
        }
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("microbench-callgrind-\(getpid())").path
        defer { try? files.removeItem(atPath: directory) }
        do { try files.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            return .failure(.init(description: "cannot create \(directory): \(error)"))
        }
        let executable = directory + "/stripped"
        let this = Subprocess.currentExecutable
        let strip = Subprocess.run(
            Subprocess.find("strip") ?? "/usr/bin/strip", ["--strip-debug", "-o", executable, this])
        let program = strip.status == 0 ? executable : this
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        let valgrindArguments =
            ["--tool=callgrind", "--callgrind-out-file=\(directory)/callgrind.out"] + options
            + [program] + arguments
        let result = Subprocess.run(valgrind, valgrindArguments, environment: environment)
        guard result.status == 0 else {
            return .failure(
                .init(description: "valgrind failed (status \(result.status)): \(result.standardError.suffix(2000))"))
        }
        do { return .success(try read(directory)) } catch { return .failure(error) }
    }
}
