import FanoutMicrobench
import FanoutScrollViewKit

/// Which cases a command line selects.
struct Selection {
    static let allWidths = (0...10).map { 1 << $0 }
    static let quickWidths = [1, 16, 256]
    static let messageNames = ScrollViewMessage.allCases.map { "\($0)" }

    var widths: [Int]
    var messages: [ScrollViewMessage]
    var strategies: Set<String>?
    var filter: Regex<AnyRegexOutput>?
    /// A `--quick` smoke run: fewer widths, fewer samples.
    var isQuick: Bool
    /// `bench list`: cases are named, never set up, so nothing external is
    /// built or loaded.
    var isListing: Bool

    /// The selection the options describe.
    ///
    /// - Throws: A usage error naming an unknown strategy or message.
    init(_ options: BenchOptions) throws(BenchOptions.UsageError) {
        isQuick = options.quick
        isListing = options.subcommand == .list
        widths = options.widths ?? (options.quick ? Self.quickWidths : Self.allWidths)
        messages = ScrollViewMessage.allCases
        if let names = options.messages {
            messages = try names.map { (name) throws(BenchOptions.UsageError) -> ScrollViewMessage in
                guard let message = ScrollViewMessage.allCases.first(where: { "\($0)" == name }) else {
                    throw .init("unknown message '\(name)' (known: \(Self.messageNames.joined(separator: ", ")))")
                }
                return message
            }
        }
        if let names = options.strategies {
            let known = BenchmarkFamilies.contenders
            for name in names where !known.contains(name) {
                throw .init("unknown strategy '\(name)' (known: \(known.joined(separator: ", ")))")
            }
            strategies = Set(names)
        }
        filter = options.filter.flatMap { try? Regex($0) }
    }

    /// Whether the scenarios, which send `didScroll` only, are selected.
    var includesDidScroll: Bool { messages.contains(.didScroll) }

    /// Whether `--strategies` and `--filter` keep the case named `id`.
    func includes(_ id: CaseID) -> Bool {
        (strategies?.contains(id.strategy) ?? true) && (filter.map { id.name.contains($0) } ?? true)
    }

    /// The selected in-process cases of every family, in run order.
    func cases() -> [BenchmarkCase] {
        BenchmarkFamilies.all.flatMap { $0.cases(self) }.filter { includes($0.id) }
    }

    /// The names of everything selected, in run order.
    func names() -> [String] {
        cases().map(\.name)
    }
}
