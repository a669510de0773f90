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

    /// The instruction totals of the dumps in `directory` whose file names
    /// start with `prefix`, by label.
    ///
    /// - Throws: When a dump file cannot be read or has no total.
    public static func totals(inDirectory directory: String, prefix: String) throws -> [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasPrefix(prefix) {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            var label: String?
            var total: UInt64?
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix("desc: Trigger: Client Request: ") {
                    label = String(line.dropFirst("desc: Trigger: Client Request: ".count))
                } else if line.hasPrefix("summary: ") || line.hasPrefix("totals: ") {
                    let value = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
                    total = total ?? value
                }
            }
            guard let label else { continue }
            guard let total else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(name): no total in callgrind dump"])
            }
            totals[label] = total
        }
        return totals
    }
}
