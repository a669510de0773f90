import FanoutMicrobench

/// Fuzz target `parsers`: the readers of `bench check`'s baseline and
/// thresholds files and of the results CSV, fed the bytes as text (the first
/// byte picks the reader; half the inputs start from a valid header, so the
/// fuzzer reaches the rows).
///
/// Checked: every reader either returns or throws a ``CSV/ParseError`` naming
/// the file and a line of the text; whatever it accepts, writing it back and
/// reading it again gives the same records.
enum ParserFuzzTarget {
    static let file = "fuzz.csv"

    static func run(_ data: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        guard let first = data.first else { return findings }
        let body = String(decoding: data.dropFirst(), as: UTF8.self)
        let headers = [
            GateRecord.columns.joined(separator: ","), GateThresholds.columns.joined(separator: ","),
            ResultRow.columns.joined(separator: ","),
        ]
        let reader = Int(first) % 3
        let text = first & 0x80 != 0 ? headers[reader] + "\n" + body : body
        // Line breaks as CSV counts them: "\n" and "\r\n" (one Character in Swift).
        let lines = 1 + text.reduce(0) { $0 + ($1 == "\n" || $1 == "\r\n" ? 1 : 0) }
        func checkError(_ error: CSV.ParseError) {
            findings.check(error.file == file, "error names \(error.file)")
            findings.check((1...max(lines, 1)).contains(error.line), "line \(error.line) of \(lines): \(error)")
            findings.check(error.description.hasPrefix("\(file):\(error.line): "), "description '\(error)'")
        }
        switch reader {
        case 0:
            do {
                let records = try GateRecord.parse(text, file: file)
                let rendered = GateRecord.render(records)
                let again = try GateRecord.parse(rendered, file: file)
                findings.check(
                    GateRecord.render(again) == rendered,
                    "a baseline does not round-trip: \(rendered.debugDescription) read back as \(GateRecord.render(again).debugDescription)")
                findings.check(again.map(\.name) == records.map(\.name), "a baseline's cases changed")
            } catch { checkError(error) }
        case 1:
            do {
                let thresholds = try GateThresholds.parse(text, file: file)
                for metric in GateRecord.metrics {
                    let record = GateRecord(
                        benchmark: "dispatch", strategy: "any", message: "m", width: 1, responders: 1, values: [:])
                    findings.check(thresholds.rule(for: metric, record) != nil, "no rule for \(metric)")
                }
            } catch { checkError(error) }
        default:
            do {
                let rows = try CSV.parse(text, file: file)
                let rendered = CSV.render(rows)
                let again = try CSV.parse(rendered, file: file)
                findings.check(
                    CSV.render(again) == rendered,
                    "a results CSV does not round-trip: \(rendered.debugDescription) read back as \(CSV.render(again).debugDescription)")
                findings.check(again.count == rows.count, "\(rows.count) rows became \(again.count)")
            } catch { checkError(error) }
        }
        return findings
    }
}
