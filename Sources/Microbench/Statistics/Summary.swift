/// Order statistics of a set of samples.
public struct Summary: Equatable, Sendable {
    /// The number of samples.
    public let count: Int
    public let minimum: Double
    public let p10: Double
    public let median: Double
    public let p90: Double
    public let maximum: Double
    /// The median absolute deviation from the median.
    public let medianAbsoluteDeviation: Double

    /// The robust relative spread: MAD ÷ median (0 when the median is 0).
    public var relativeSpread: Double { median == 0 ? 0 : medianAbsoluteDeviation / median }

    /// Summarizes `samples`.
    ///
    /// - Precondition: `samples` is not empty.
    /// - Complexity: O(*n* log *n*).
    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        let sorted = samples.sorted()
        count = sorted.count
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        p10 = Self.quantile(0.10, ofSorted: sorted)
        median = Self.quantile(0.50, ofSorted: sorted)
        p90 = Self.quantile(0.90, ofSorted: sorted)
        let deviations = sorted.map { abs($0 - Self.quantile(0.50, ofSorted: sorted)) }.sorted()
        medianAbsoluteDeviation = Self.quantile(0.50, ofSorted: deviations)
    }

    /// The `q`-quantile of sorted values, interpolating linearly between
    /// the two nearest ranks.
    ///
    /// - Complexity: O(1).
    public static func quantile(_ q: Double, ofSorted sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty && (0...1).contains(q))
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
