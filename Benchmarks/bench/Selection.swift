import Fanout
import ScrollViewKit
import Microbench

/// Which cases a command line selects.
struct Selection {
    static let allWidths = (0...10).map { 1 << $0 }
    static let quickWidths = [1, 16, 256]
    static let messageNames = ScrollViewMessage.allCases.map { "\($0)" }

    var widths: [Int]
    var messages: [ScrollViewMessage]
    var strategies: Set<String>?
    var filter: Regex<AnyRegexOutput>?

    /// The selection the options describe.
    ///
    /// - Throws: A usage error naming an unknown strategy or message.
    init(_ options: BenchOptions) throws(BenchOptions.UsageError) {
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
            let known = Self.strategyNames
            for name in names where !known.contains(name) {
                throw .init("unknown strategy '\(name)' (known: \(known.joined(separator: ", ")))")
            }
            strategies = Set(names)
        }
        filter = options.filter.flatMap { try? Regex($0) }
    }

    /// Every strategy and peer name a case can have.
    static var strategyNames: [String] {
        DispatchBenchmarks.strategyNames + [StaticFanOutBenchmarks.name] + PeerBenchmarks.names
            + [ObjCPeer.name, "delegateChain"]
    }

    /// The widths at which the Objective-C peer runs (it sends didScroll only).
    var objcWidths: [Int] {
        guard messages.contains(.didScroll), strategies?.contains(ObjCPeer.name) ?? true else { return [] }
        return widths.filter { width in
            filter.map { ObjCPeer.names(widths: [width])[0].contains($0) } ?? true
        }
    }

    /// The names of everything selected, in run order.
    func names() -> [String] {
        cases().map(\.name) + ObjCPeer.names(widths: objcWidths)
    }

    /// The selected cases, in run order.
    func cases() -> [BenchmarkCase] {
        var all = DispatchBenchmarks.cases(widths: widths, messages: messages)
        all += StaticFanOutBenchmarks.cases(widths: widths, messages: messages)
        if messages.contains(.didScroll) {
            all += PeerBenchmarks.cases(widths: widths)
            all += ScenarioBenchmarks.cases(widths: widths)
            if widths.contains(ContentionBenchmarks.width) || widths.count > 3 { all += ContentionBenchmarks.cases() }
        }
        return all.filter { benchmarkCase in
            (strategies?.contains(benchmarkCase.strategy) ?? true)
                && (filter.map { benchmarkCase.name.contains($0) } ?? true)
        }
    }
}
