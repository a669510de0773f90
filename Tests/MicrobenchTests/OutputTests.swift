import Foundation
import FanoutMicrobench
import Testing

private let metadata = RunMetadata(
    swiftVersion: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", commit: "abc123-dirty", host: "host, with comma",
    cpu: "AMD \"EPYC\" (2 cores)", timestamp: "2026-11-22T00:00:00Z", build: "release")

private func sampleRows() -> [ResultRow] {
    [
        ResultRow(
            benchmark: "dispatch", strategy: "closureTable", message: "didScroll", width: 64, responders: 4,
            samples: 21, iterations: 1234, nanosecondsPerOperationMedian: 872.5, nanosecondsPerOperationP10: 860.25,
            nanosecondsPerOperationP90: 900.125, nanosecondsPerOperationMinimum: 850, nanosecondsPerDelivery: 218.125,
            deliveriesPerSecond: 4584527.5, counts: .init(mallocs: 0, bytes: 0, retains: 2, releases: 2.5),
            relativeSpread: 0.0125, metadata: metadata),
        ResultRow(
            benchmark: "dispatch", strategy: "floor", message: "viewForZooming", width: 1, responders: 1,
            samples: 3, iterations: 1, nanosecondsPerOperationMedian: 1, nanosecondsPerOperationP10: 1,
            nanosecondsPerOperationP90: 1, nanosecondsPerOperationMinimum: 1, nanosecondsPerDelivery: 1,
            deliveriesPerSecond: 1e9, counts: nil, relativeSpread: 0, heapBytesPerUnit: 56.25, cacheMissesPerDelivery: 2.8125, metadata: metadata),
    ]
}

@Suite("Results output")
struct OutputTests {
    @Test("the CSV header starts with the documented columns, in order")
    func headerIsStable() {
        let header = CSV.render([]).split(separator: "\n").first.map(String.init)
        #expect(header?.hasPrefix(
            "benchmark,strategy,message,width,responders,samples,iterations,ns_per_op_median,ns_per_op_p10,"
            + "ns_per_op_p90,ns_per_op_min,ns_per_delivery,deliveries_per_second,mallocs_per_op,bytes_per_op,"
            + "retains_per_op,releases_per_op,") == true)
        #expect(header?.hasSuffix("swift_version,commit,host,cpu,timestamp,build") == true)
    }

    @Test("the CSV writer round-trips through the parser")
    func csvRoundTrips() throws {
        let rows = sampleRows()
        let text = CSV.render(rows)
        #expect(try CSV.parse(text, file: "results.csv") == rows)
    }

    @Test("numbers of every magnitude are written so that they read back (found by fuzzing: 8.9e19 trapped)",
          arguments: [0, 1.5, 123_456.789_1, 99_999_999_999.9, 8.888_888_288_888_28e13, 1e14, 8.888e19, 3e300])
    func numbersRoundTrip(value: Double) throws {
        let record = GateRecord(
            benchmark: "dispatch", strategy: "floor", message: "didScroll", width: 1, responders: 1,
            values: ["instructions_per_op": value])
        let read = try GateRecord.parse(GateRecord.render([record]), file: "baseline.csv")
        let readValue = try #require(read.first?.values["instructions_per_op"])
        #expect(abs(readValue - value) <= 0.00005 || readValue == value, "\(value) read back as \(readValue)")
        let again = try GateRecord.parse(GateRecord.render(read), file: "baseline.csv")
        #expect(again.first?.values["instructions_per_op"] == readValue, "writing it again changes it")
        #expect(!Report.fixed(value).isEmpty && !Report.fixed(-value).isEmpty)
    }

    @Test("a line break inside a quoted field counts, \\r\\n too, so later errors name the right line")
    func quotedLineBreaks() {
        let header = ResultRow.columns.joined(separator: ",")
        for lineBreak in ["\n", "\r\n"] {
            let input = header + "\n\"two\(lineBreak)lines\"\nx\"y\n"
            let error = #expect(throws: CSV.ParseError.self) { try CSV.parse(input, file: "results.csv") }
            #expect(error?.line == 4, "\(lineBreak.debugDescription): \(error?.description ?? "no error")")
        }
    }

    @Test("a malformed CSV names the file and the line", arguments: [
        ("", "results.csv:1: empty file"),
        ("benchmark,strategy\n", "results.csv:1: header must be"),
        ("HEADER\ndispatch,floor\n", "results.csv:2: expected 33 fields, got 2"),
        ("HEADER\nROW\nROW\ndispatch,floor,didScroll,x" + String(repeating: ",1", count: 29) + "\n",
         "results.csv:4: column width must be an integer, got 'x'"),
        ("HEADER\n\"unterminated\n", "results.csv:2: unterminated quoted field"),
    ])
    func malformedCSV(text: String, expected: String) throws {
        let header = ResultRow.columns.joined(separator: ",")
        let row = CSV.render([sampleRows()[0]]).split(separator: "\n")[1]
        let input = text.replacingOccurrences(of: "HEADER", with: header).replacingOccurrences(of: "ROW", with: row)
        let error = #expect(throws: CSV.ParseError.self) { try CSV.parse(input, file: "results.csv") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("JSON has one object per row, numbers unquoted, missing counters null")
    func jsonOutput() throws {
        let json = Report.json(sampleRows())
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(decoded?.count == 2)
        #expect(decoded?[0]["ns_per_op_median"] as? Double == 872.5)
        #expect(decoded?[0]["host"] as? String == "host, with comma")
        #expect(decoded?[1]["mallocs_per_op"] is NSNull)
        let keys = json.split(separator: "\n").filter { $0.hasPrefix("    \"") }.prefix(ResultRow.columns.count)
        #expect(keys.map { $0.split(separator: "\"")[1] }.map(String.init) == ResultRow.columns, "the CSV's column order")
    }

    @Test("the table has a header and one line per row")
    func tableOutput() {
        let lines = Report.table(sampleRows()).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("dispatch/closureTable/didScroll/64/4"))
        #expect(lines[2].hasSuffix("-"), "no counters reads as '-'")
    }

    @Test("atomic writes replace the file and leave no temporary behind")
    func atomicWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/results.csv").path
        try AtomicFile.write("first\n", to: path)
        try AtomicFile.write("second\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("nested").path)
        #expect(listing == ["results.csv"])
    }

    @Test("a failed atomic write leaves the destination as it was, and no temporary file")
    func failedAtomicWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.csv").path
        try AtomicFile.write("old\n", to: path)
        // A directory where the temporary file would go: creating it fails.
        let temporary = directory.appendingPathComponent(".results.csv.\(getpid()).tmp")
        try FileManager.default.createDirectory(at: temporary.appendingPathComponent("blocker"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try AtomicFile.write("new\n", to: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        try FileManager.default.removeItem(at: temporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["results.csv"])
        #expect(throws: (any Error).self) { try AtomicFile.write("x", to: "/proc/fanout-cannot-write/results.csv") }
    }
}

@Suite("Statistics")
struct SummaryTests {
    @Test("quantiles interpolate between ranks; MAD is robust")
    func summary() {
        let summary = Summary([5, 1, 4, 2, 3, 100])
        #expect(summary.minimum == 1)
        #expect(summary.maximum == 100)
        #expect(summary.median == 3.5)
        #expect(summary.p10 == 1.5)
        #expect(summary.p90 == 52.5)
        #expect(summary.medianAbsoluteDeviation == 1.5)
        #expect(abs(summary.relativeSpread - 1.5 / 3.5) < 1e-12)
    }

    @Test("one sample is its own summary")
    func single() {
        let summary = Summary([7])
        #expect([summary.minimum, summary.p10, summary.median, summary.p90] == [7, 7, 7, 7])
        #expect(summary.medianAbsoluteDeviation == 0)
    }
}
