import Foundation

extension GateRecord {
    /// One entry of github-action-benchmark's `customSmallerIsBetter` input.
    struct BenchmarkActionEntry: Encodable {
        var name: String
        var unit: String
        var value: Double
    }

    /// The units of the gated metrics, as the charts label them.
    static let units = [
        "mallocs_per_op": "mallocs/message", "retains_per_op": "retains/message",
        "releases_per_op": "releases/message", "instructions_per_op": "instructions/message",
    ]

    /// `records` in the JSON that the github-action-benchmark action reads
    /// with `tool: customSmallerIsBetter`: an array of `{name, unit, value}`,
    /// one entry per case and measured metric, named `<case> <metric>`, in
    /// record then ``metrics`` order. A metric that was not measured (the
    /// instructions of a run without valgrind) has no entry; nor has a value
    /// that is not finite, which JSON cannot hold.
    public static func benchmarkActionJSON(_ records: [GateRecord]) -> String {
        let entries = records.flatMap { record in
            metrics.compactMap { metric -> BenchmarkActionEntry? in
                guard let value = record.values[metric], value.isFinite else { return nil }
                // A dispatch case's operation is one message; another benchmark's (setup) is its own operation.
                let unit = (units[metric] ?? metric).replacingOccurrences(
                    of: "/message",
                    with: record.benchmark == "dispatch" || record.benchmark.hasPrefix("forward")
                        ? "/message" : "/operation")
                return BenchmarkActionEntry(name: "\(record.name) \(metric)", unit: unit, value: value)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and finite numbers cannot fail.
        return String(decoding: try! encoder.encode(entries), as: UTF8.self) + "\n"
    }
}
