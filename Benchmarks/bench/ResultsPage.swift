import Foundation
import FanoutMicrobench

/// The results page, `Results/README.md`, printed by `bench page [FILE]` from a results CSV: what the run was, the
/// decision guide in full, the run's one-screen summary, what a client pays, and the charts. Every figure comes from
/// the CSV or from `client-cost.csv` beside it (`scripts/client-cost --output`); a test checks that the committed page
/// is what the command prints for the committed run.
struct ResultsPage {
    let rows: [ResultRow]
    let file: String
    /// The summary `bench summary FILE` prints.
    let summary: [String]
    /// The rows of `client-cost.csv` beside `file`, by column; `nil` when there is no such file.
    let clientCost: [[String: String]]?

    /// A `client-cost.csv` that cannot be read.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The columns `scripts/client-cost --output` writes.
    static let clientCostColumns = [
        "client", "messages", "build_seconds", "stripped_bytes", "bytes_per_message_added", "repeats", "cpu", "commit",
        "date",
    ]

    /// Where the client cost of the run in `file` is: `client-cost.csv` in the same folder.
    static func clientCostPath(besideCSV file: String) -> String {
        let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (directory.isEmpty ? "" : directory + "/") + "client-cost.csv"
    }

    /// Reads a `client-cost.csv`: its rows by column, or `nil` when the file does not exist.
    ///
    /// - Throws: ``Malformed``, naming the file and line, for a header without the columns or a row of another length.
    static func readClientCost(_ path: String) throws(Malformed) -> [[String: String]]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Malformed(description: "\(path): \(error.localizedDescription)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines.first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        let missing = clientCostColumns.filter { !header.contains($0) }
        guard missing.isEmpty else {
            throw Malformed(description: "\(path):1: no column \(missing.joined(separator: ", ")) in the header")
        }
        var rows: [[String: String]] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == header.count else {
                throw Malformed(description: "\(path):\(index + 1): \(cells.count) cells, the header has \(header.count)")
            }
            rows.append(Dictionary(uniqueKeysWithValues: zip(header, cells)))
        }
        guard rows.contains(where: { $0["client"] == "hand-written" }) else {
            throw Malformed(description: "\(path): no hand-written client to compare with")
        }
        return rows
    }

    func lines() throws -> [String] {
        let metadata = rows[0].metadata
        let processes = rows.compactMap(\.processes).max() ?? 1
        var lines = [
            "# Results",
            "",
            "<!-- Printed by `swift run -c release bench page \(file) > Results/README.md`; a test checks that this page"
                + " is what it prints. -->",
            "",
            "The committed run: \(rows.count) cases, measured at commit `\(metadata.commit.prefix(7))` on"
                + " \(metadata.cpu) with "
                + metadata.swiftVersion.replacingOccurrences(of: "Swift version ", with: "Swift ").prefix { $0 != "(" }
                    .trimmingCharacters(in: .whitespaces)
                + ", \(metadata.timestamp.prefix(10)). "
                + (processes > 1 ? "Each dispatch figure is the mean over \(processes) fresh processes. " : "")
                + "How a case is measured, and how far to trust a figure: [Benchmarking](../Documentation/Benchmarking.md).",
            "",
            "## Which strategy, in full",
            "",
        ]
        let guide = DecisionGuide(rows: rows, file: file)
        if let width = DecisionGuide.headlineWidth(of: rows) { lines += try guide.lines(width: width) }
        lines += [
            "", "## The run's summary", "",
            "What `swift run -c release bench summary \(file)` prints (ns per delivery unless a line says otherwise):",
            "", "```text",
        ]
        lines += summary + ["```"]
        lines += clientCostLines()
        lines += ["", "## Charts", "", "Drawn by `scripts/plot \(file)`:", ""]
        lines += BenchmarkFamilies.charts.map { "![\($0.title)](plots/\($0.file).png)" }
        return lines
    }

    /// What a client pays: build time and size against a hand-written forwarding class, and the target names.
    func clientCostLines() -> [String] {
        var lines = ["", "## What a client pays", ""]
        let names = "A client builds the library `Fanout` and its C support target `FanoutSupport` only. Every other"
            + " target of this package is named `Fanout…`, so none clashes with a target of the client's graph"
            + " (`scripts/client-check`); the one unprefixed name is the executable product `bench`, and a graph in"
            + " which another package also exports a product named `bench` fails to resolve."
        guard let clientCost, let hand = clientCost.first(where: { $0["client"] == "hand-written" }) else {
            return lines + ["No client cost is recorded beside this run (`scripts/client-cost --output`).", "", names]
        }
        func number(_ row: [String: String], _ column: String) -> Double { Double(row[column] ?? "") ?? .nan }
        let (handSeconds, handBytes) = (number(hand, "build_seconds"), number(hand, "stripped_bytes"))
        lines += [
            "A client of \(hand["messages"] ?? "?") messages, glued as the guide teaches, built clean in release"
                + " (median of \(hand["repeats"] ?? "?") builds) and stripped, against the same client with a"
                + " hand-written forwarding class (\(hand["cpu"] ?? "?"), Fanout at `\(hand["commit"] ?? "?")`,"
                + " \(hand["date"] ?? "?"); `scripts/client-cost --output \(Self.clientCostPath(besideCSV: file))`):",
            "",
            "| client | clean build, s | × hand-written | stripped, KB | Fanout adds, KB | KB per message added |",
            "|---|--:|--:|--:|--:|--:|",
        ]
        for row in clientCost {
            let (seconds, bytes) = (number(row, "build_seconds"), number(row, "stripped_bytes"))
            let isHand = row["client"] == "hand-written"
            lines.append(
                "| \(row["client"] ?? "?") | \(DecisionGuide.format(seconds, 1)) | "
                    + (isHand ? "" : DecisionGuide.format(seconds / handSeconds, 1) + "×") + " | "
                    + "\(DecisionGuide.format(bytes / 1024, 0)) | "
                    + (isHand ? "" : DecisionGuide.format((bytes - handBytes) / 1024, 0)) + " | "
                    + "\(DecisionGuide.format(number(row, "bytes_per_message_added") / 1024, 1)) |")
        }
        return lines + ["", names]
    }
}
