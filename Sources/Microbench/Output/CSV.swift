/// Reading and writing the results CSV (RFC 4180 quoting).
public enum CSV {
    /// A malformed CSV file, with the 1-based line where reading stopped.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String

        public init(file: String, line: Int, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        /// `file:line: reason`, or `file: reason` when no line applies.
        public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
    }

    /// The CSV text of `rows`, header first.
    ///
    /// - Complexity: O(*n*) in the rows.
    public static func render(_ rows: [ResultRow]) -> String {
        var text = ResultRow.columns.joined(separator: ",") + "\n"
        for row in rows {
            text += fields(of: row).map(quote).joined(separator: ",") + "\n"
        }
        return text
    }

    static func fields(of row: ResultRow) -> [String] {
        let counts = row.counts
        return row.id.fields + [
            String(row.samples), String(row.iterations), number(row.nanosecondsPerOperationMedian),
            number(row.nanosecondsPerOperationP10), number(row.nanosecondsPerOperationP90),
            number(row.nanosecondsPerOperationMinimum), number(row.nanosecondsPerDelivery),
            number(row.deliveriesPerSecond), counts.map { number($0.mallocs) } ?? "",
            counts.map { number($0.bytes) } ?? "", counts.map { number($0.retains) } ?? "",
            counts.map { number($0.releases) } ?? "", number(row.relativeSpread),
            row.heapBytesPerUnit.map(number) ?? "", row.cacheMissesPerDelivery.map(number) ?? "",
            row.processes.map(String.init) ?? "", row.processSpread.map(number) ?? "",
            row.slowedProcesses.map(String.init) ?? "", row.interval.map(number) ?? "",
            row.intervalRuns.map(String.init) ?? "", row.drift.map(number) ?? "", row.runs.map(String.init) ?? "",
        ] + row.metadata.values
    }

    /// Formats a number without exponent noise: integers as integers, others
    /// with up to four decimals.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        guard abs(value) < 1e11 else { return "\(value)" }
        var text = String(format4: value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }

    /// Splits CSV text into records of fields, honouring quotes.
    ///
    /// - Throws: ``ParseError`` for an unterminated quote or stray characters
    ///   after a closing quote.
    public static func records(in text: String, file: String) throws(ParseError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending {
                pending = nil
                return character
            }
            return characters.next()
        }
        while let character = next() {
            if inQuotes {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = following
                        }
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n":
                fields.append(field)
                field = ""
                afterQuote = false
                records.append((recordLine, fields))
                fields = []
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            default:
                if afterQuote {
                    throw ParseError(file: file, line: line, reason: "unexpected character after a closing quote")
                }
                if character == "\"" {
                    throw ParseError(file: file, line: line, reason: "a quote inside an unquoted field")
                }
                field.append(character)
            }
        }
        if inQuotes { throw ParseError(file: file, line: recordLine, reason: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append((recordLine, fields))
        }
        return records
    }

    /// Reads rows written by ``render(_:)``, or by a run before the process columns (``ResultRow/processColumns``) or
    /// the interval columns (``ResultRow/intervalColumns``), whose rows then have none.
    ///
    /// - Throws: ``ParseError`` naming the file and line of the first problem:
    ///   a missing or different header, a wrong number of fields, or a value
    ///   that is not a number where one is required.
    public static func parse(_ text: String, file: String) throws(ParseError) -> [ResultRow] {
        let records = try records(in: text, file: file)
        guard let header = records.first else {
            throw ParseError(file: file, line: 1, reason: "empty file, expected a header")
        }
        let expected = Array(ResultRow.columns)
        // The headers of earlier runs: without the interval columns, and without the process columns too.
        let withoutIntervals = expected.filter { !ResultRow.intervalColumns.contains($0) }
        let withoutProcesses = withoutIntervals.filter { !ResultRow.processColumns.contains($0) }
        let missing: [String]
        switch header.fields {
        case expected: missing = []
        case withoutIntervals: missing = ResultRow.intervalColumns
        case withoutProcesses: missing = ResultRow.processColumns + ResultRow.intervalColumns
        default:
            throw ParseError(
                file: file, line: header.line,
                reason: "header must be \(expected.joined(separator: ",")), got \(header.fields.joined(separator: ","))"
            )
        }
        var rows: [ResultRow] = []
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                let reason = "expected \(header.fields.count) fields, got \(record.fields.count)"
                throw ParseError(file: file, line: record.line, reason: reason)
            }
            var fields = record.fields
            for column in missing { fields.insert("", at: expected.firstIndex(of: column)!) }
            rows.append(try row(fields, line: record.line, file: file))
        }
        return rows
    }

    static func row(_ fields: [String], line: Int, file: String) throws(ParseError) -> ResultRow {
        guard fields.count == ResultRow.columns.count else {
            throw ParseError(
                file: file, line: line, reason: "expected \(ResultRow.columns.count) fields, got \(fields.count)")
        }
        func double(_ index: Int) throws(ParseError) -> Double {
            guard let value = Double(fields[index]), value.isFinite else {
                throw ParseError(
                    file: file, line: line,
                    reason: "column \(ResultRow.columns[index]) must be a number, got '\(fields[index])'")
            }
            return value
        }
        func integer(_ index: Int) throws(ParseError) -> Int {
            guard let value = Int(fields[index]) else {
                throw ParseError(
                    file: file, line: line,
                    reason: "column \(ResultRow.columns[index]) must be an integer, got '\(fields[index])'")
            }
            return value
        }
        var counts: CountsPerOperation?
        if !(13...16).allSatisfy({ fields[$0].isEmpty }) {
            counts = CountsPerOperation(
                mallocs: try double(13), bytes: try double(14), retains: try double(15), releases: try double(16))
        }
        let heapBytesPerUnit = fields[18].isEmpty ? nil : try double(18)
        let cacheMissesPerDelivery = fields[19].isEmpty ? nil : try double(19)
        let processes = fields[20].isEmpty ? nil : try integer(20)
        let processSpread = fields[21].isEmpty ? nil : try double(21)
        let slowedProcesses = fields[22].isEmpty ? nil : try integer(22)
        let interval = fields[23].isEmpty ? nil : try double(23)
        let intervalRuns = fields[24].isEmpty ? nil : try integer(24)
        let drift = fields[25].isEmpty ? nil : try double(25)
        let runs = fields[26].isEmpty ? nil : try integer(26)
        let metadata = Array(fields[27...])
        return ResultRow(
            benchmark: fields[0], strategy: fields[1], message: fields[2], width: try integer(3),
            responders: try integer(4), samples: try integer(5), iterations: try integer(6),
            nanosecondsPerOperationMedian: try double(7), nanosecondsPerOperationP10: try double(8),
            nanosecondsPerOperationP90: try double(9), nanosecondsPerOperationMinimum: try double(10),
            nanosecondsPerDelivery: try double(11), deliveriesPerSecond: try double(12), counts: counts,
            relativeSpread: try double(17), heapBytesPerUnit: heapBytesPerUnit,
            cacheMissesPerDelivery: cacheMissesPerDelivery, processes: processes, processSpread: processSpread,
            slowedProcesses: slowedProcesses, interval: interval, intervalRuns: intervalRuns, drift: drift, runs: runs,
            metadata: RunMetadata(
                swiftVersion: metadata[0], commit: metadata[1], host: metadata[2], cpu: metadata[3],
                timestamp: metadata[4], build: metadata[5]))
    }
}

extension String {
    /// The value with four decimals, without Foundation. Magnitudes of 10¹¹
    /// and more (where the value × 10⁴ is no longer an exact integer in a
    /// `Double`, so four decimals would not read back the same), infinities
    /// and NaN are written as Swift writes them.
    init(format4 value: Double) {
        guard abs(value) < 1e11 else {
            self = "\(value)"
            return
        }
        let scaled = (value * 10_000).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let whole = (magnitude / 10_000).rounded(.down)
        let fraction = Int(magnitude - whole * 10_000)
        let digits = String(fraction)
        self = sign + String(Int64(whole)) + "." + String(repeating: "0", count: 4 - digits.count) + digits
    }

    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
