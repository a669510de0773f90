import FanoutMicrobench

/// A small fixed-width text table for the run's summary: a title line, a
/// header, one row per name; columns right-aligned.
struct SummaryTable {
    var title: String
    var header: [String]
    var rows: [[String]] = []

    /// The table's lines.
    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return [title, render(header)] + rows.map(render)
    }

    /// A number of nanoseconds, short: three significant figures, no exponent.
    static func nanoseconds(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        switch value {
        case ..<10: return Report.fixed(value, decimals: 2)
        case ..<100: return Report.fixed(value, decimals: 1)
        default: return String(Int(value.rounded()))
        }
    }

    /// Up to three of `widths` to show: the smallest, 4 (the widths screens have) when measured, else the largest,
    /// and the one nearest 64 (the headline width).
    static func shownWidths(_ widths: [Int]) -> [Int] {
        let sorted = Array(Set(widths)).sorted()
        guard let first = sorted.first, let last = sorted.last else { return [] }
        let middle = sorted.min { abs($0 - 64) < abs($1 - 64) } ?? first
        return Array(Set([first, sorted.contains(4) ? 4 : last, middle])).sorted()
    }

    /// The width of `widths` nearest 64: the headline width of the summary's single-width tables.
    static func headlineWidth(_ widths: [Int]) -> Int? {
        widths.min { abs($0 - 64) < abs($1 - 64) }
    }
}

extension [ResultRow] {
    /// The rows of `benchmark` by case identity.
    func byID(_ benchmark: String) -> [CaseID: ResultRow] {
        Dictionary(filter { $0.benchmark == benchmark }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
