import Foundation

/// Human- and machine-readable renderings of result rows for standard output.
public enum Report {
    /// A fixed-width table: one line per case.
    public static func table(_ rows: [ResultRow]) -> String {
        let header = ["case", "ns/op", "ns/delivery", "±MAD", "mallocs/op", "retains/op", "releases/op"]
        var lines = [header]
        for row in rows {
            lines.append([
                row.name,
                fixed(row.nanosecondsPerOperationMedian),
                fixed(row.nanosecondsPerDelivery),
                fixed(row.relativeSpread * 100, decimals: 1) + "%",
                row.counts.map { fixed($0.mallocs) } ?? "-",
                row.counts.map { fixed($0.retains) } ?? "-",
                row.counts.map { fixed($0.releases) } ?? "-",
            ])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, text in
                column == 0
                    ? text + String(repeating: " ", count: widths[column] - text.count)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// A JSON array with one object per row, keyed by the CSV columns in their order: numbers for the numeric
    /// columns (`null` when empty), strings for the others. Encoded by `JSONEncoder`.
    public static func json(_ rows: [ResultRow]) -> String {
        let numeric: Set<String> = [
            "width", "responders", "samples", "iterations", "ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90",
            "ns_per_op_min", "ns_per_delivery", "deliveries_per_second", "mallocs_per_op", "bytes_per_op",
            "retains_per_op", "releases_per_op", "spread_mad_over_median", "heap_bytes_per_unit",
            "cache_misses_per_delivery", "processes", "process_spread", "slowed_processes", "interval", "interval_runs",
            "drift", "runs",
        ]
        // Each key and value is encoded by `JSONEncoder`; the objects are assembled here so that their members keep
        // the CSV's column order (the encoder's keyed containers do not keep an order on every platform).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        func encoded(_ value: some Encodable) -> String {
            // Strings and finite doubles always encode.
            String(decoding: try! encoder.encode(value), as: UTF8.self)
        }
        let objects = rows.map { row in
            let members = zip(ResultRow.columns, CSV.fields(of: row)).map { column, value in
                let number = Double(value).flatMap { $0.isFinite ? $0 : nil }  // JSON has no NaN or infinity
                let rendered = numeric.contains(column) ? number.map(encoded) ?? "null" : encoded(value)
                return "    \(encoded(column)): \(rendered)"
            }
            return "  {\n" + members.joined(separator: ",\n") + "\n  }"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    public static func fixed(_ value: Double, decimals: Int = 2) -> String {
        guard abs(value) < 1e11 else { return "\(value)" }
        let text = String(format4: value)
        guard let dot = text.firstIndex(of: ".") else { return text }
        return String(text[...text.index(dot, offsetBy: decimals)])
    }
}
