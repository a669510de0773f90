import Foundation
import MicrobenchCounters

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
                    guard summary == nil || summary == value else { throw DumpError(file: file, reason: "two summaries") }
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
        guard let total = summary ?? totals else { throw DumpError(file: file, reason: "no total in the dump of '\(label)'") }
        return (label, total)
    }

    /// The instruction totals of the dumps in `directory` whose file names
    /// start with `prefix`, by label.
    ///
    /// - Throws: When a dump cannot be read or parsed, or two dumps share a label.
    public static func totals(inDirectory directory: String, prefix: String) throws -> [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasPrefix(prefix) {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            guard let (label, total) = try parseDump(text, file: name) else { continue }
            guard totals.updateValue(total, forKey: label) == nil || label == InstructionPass.warmUpLabel else {
                throw DumpError(file: name, reason: "a second dump labelled '\(label)'")
            }
        }
        return totals
    }
}
