import Foundation
import FanoutMicrobench

/// "Which strategy should I use?", from a results CSV: the README's table, one figure per cell (``briefLines(width:)``,
/// `bench guide [FILE]`), and the results page's, a row per need with the strategy that meets it, its cost at widths 1
/// and 4 (the widths screens have, when the run has them) and at the headline width, each against the C floor
/// (`cFunctionPointer`) with the same targets, the cold figure with its cache lines, and the caveat; then claims on
/// one delegate, forwarding, cold caches, real work and threads, each with its number (``lines(width:)``, on the page
/// `bench page` prints). Every figure is `didScroll`'s ns per delivery.
struct DecisionGuide {
    /// The `benchmark` of the rows the table's figures come from, and of their cold counterparts (the registry's).
    static let warm = BenchmarkFamilies.benchmark(for: .warm)
    static let cold = BenchmarkFamilies.benchmark(for: .cold)
    /// The message of every row the guide reads, and the C floor its ratios divide by.
    static let message = "didScroll"
    static let floor = "cFunctionPointer"

    /// The guide's slice (its warm benchmark, message and floor) as the JSON of `bench headline`: the scripts read
    /// it from `Results/headline.json` and name no family.
    static var headlineJSON: String {
        "{\"benchmark\": \"\(warm)\", \"floor\": \"\(floor)\", \"message\": \"\(message)\"}"
    }

    /// A row the table needs is not in the CSV.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// One need: the contender that meets it and its multiplexer's name, the responders divisor of the full table's
    /// headline column (1: all respond; 16: one in sixteen), the full caveat and the README's short one.
    struct Need {
        var need: String
        var strategy: String
        var type: String
        var divisor: Int
        var caveat: String
        var brief: String
    }

    static let needs: [Need] = [
        Need(need: "Targets you own, one thread: the default", strategy: "existentialArray",
             type: "ExistentialArrayMultiplexer", divisor: 1,
             caveat: "Holds targets strongly until removed; visits every target for every message.",
             brief: "Holds each target until it is removed."),
        Need(need: "Many targets, few implement each message", strategy: "closureTable",
             type: "ClosureTableMultiplexer", divisor: 16,
             caveat: "`add` costs more (an entry in each implemented message's list) and each target takes more memory.",
             brief: "Calls only the targets that implement the message; `add` costs more."),
        Need(need: "Messages named at run time (`forward`)", strategy: "selectorDictionary",
             type: "SelectorDictionaryMultiplexer", divisor: 1,
             caveat: "Typed dispatch costs as `closureTable`; `forward` boxes its arguments.",
             brief: "`forward(_:arguments:)` boxes its arguments."),
        Need(need: "Must not keep targets alive, any target type", strategy: "weakArray",
             type: "WeakArrayMultiplexer", divisor: 1,
             caveat: "A retain and a release per target per message, an atomic pair (PAIR): what calling a target it does not own safely needs.",
             brief: "A retain per target per message, an atomic pair (PAIR), to call a target it does not own."),
        Need(need: "Behaviours that end with their screen", strategy: "lifetimeBoundToOwner",
             type: "LifetimeBoundMultiplexer", divisor: 1,
             caveat: "`add(_:boundTo: owner)`; `add(_:)` is weak and retains each holder per call, an atomic pair (PAIR).",
             brief: "`add(_:boundTo:)` an owner; `add(_:)` retains per call, an atomic pair (PAIR)."),
        Need(need: "Messages sent from several threads", strategy: "concurrent",
             type: "ConcurrentMultiplexer", divisor: 1,
             caveat: "Targets must be safe to call concurrently; an atomic pair per message (PAIR).",
             brief: "Targets must be safe to call from any thread; an atomic pair per message (PAIR)."),
    ]

    /// `text` with its "PAIR" priced: what an atomic read-modify-write pair costs on the rows' CPU (the family that measures it),
    /// or the parenthesis left out when the rows did not measure it.
    func priced(_ text: String) -> String {
        guard let pair = BenchmarkFamilies.primitiveCost("atomicPair", in: Array(rows.values)) else {
            return text.replacingOccurrences(of: " (PAIR)", with: "")
        }
        return text.replacingOccurrences(of: "PAIR", with: "\(Self.format(pair, 1)) ns on this CPU")
    }

    let rows: [CaseID: ResultRow]
    let contention: [ResultRow]
    let file: String
    let commits: [String]
    /// The CPUs the rows were measured on: every ratio is one CPU's.
    let cpus: [String]

    init(rows: [ResultRow], file: String) {
        self.rows = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        contention = rows.filter { $0.benchmark == BenchmarkFamilies.benchmark(for: .contention) }
        self.file = file
        commits = Array(Set(rows.map(\.metadata.commit))).sorted()
        cpus = Array(Set(rows.map(\.metadata.cpu))).sorted()
    }

    /// The headline width of `rows`: the dense warm width nearest 64, of at least 16 (the sparse row needs
    /// one in sixteen).
    static func headlineWidth(of rows: [ResultRow]) -> Int? {
        let widths = Set(rows.filter { $0.benchmark == Self.warm && $0.width == $0.responders && $0.width >= 16 }.map(\.width))
        return SummaryTable.headlineWidth(Array(widths))
    }

    func row(_ benchmark: String, _ strategy: String, _ width: Int, _ responders: Int) -> ResultRow? {
        rows[CaseID(benchmark: benchmark, strategy: strategy, message: Self.message, width: width, responders: responders)]
    }

    func required(_ benchmark: String, _ strategy: String, _ width: Int, _ responders: Int) throws(Missing) -> ResultRow {
        guard let found = row(benchmark, strategy, width, responders) else {
            throw Missing(description: "\(file): no \(benchmark)/\(strategy)/\(Self.message)/\(width)/\(responders) row")
        }
        return found
    }

    /// The table and its claims, as Markdown lines.
    func lines(width: Int) throws(Missing) -> [String] {
        func ns(_ row: ResultRow) -> Double { row.nanosecondsPerDelivery }
        func warm(_ strategy: String, _ width: Int, _ responders: Int) throws(Missing) -> String {
            let measured = try required(Self.warm, strategy, width, responders)
            let reference = try required(Self.warm, Self.floor, width, responders)
            return Self.figure(measured, ns(measured)) + " (\(Self.format(ns(measured) / ns(reference), 1))×"
        }
        var lines: [String] = []
        let cFloor = try required(Self.warm, Self.floor, width, width)
        let small = [1, 4].filter { row(Self.warm, Self.floor, $0, $0) != nil }
        lines.append("| need | strategy | " + small.map { "width \($0) | " }.joined()
            + "width \(width): warm · cold (lines) | caveat |")
        lines.append("|---|---|" + String(repeating: "---|", count: small.count) + "---|---|")
        for need in Self.needs {
            let (strategy, caveat) = (need.strategy, priced(need.caveat))
            let responders = width / need.divisor
            let name = strategy.hasPrefix("lifetimeBound") ? "lifetimeBound" : strategy
            var coldText = ""
            if let cold = row(Self.cold, name, width, responders) {
                coldText = " · \(Self.format(ns(cold), 0))"
                if let lines = cold.cacheMissesPerDelivery { coldText += " (\(Self.format(lines, 1)) lines)" }
            }
            let sparse = need.divisor > 1 ? ", \(responders) of \(width) respond" : ""
            var cells = ""
            for w in small { cells += try warm(strategy, w, w) + ") | " }
            lines.append("| \(need.need) | `\(name)` | " + cells + (try warm(strategy, width, responders)) + "\(sparse))\(coldText) | \(caveat) |")
        }
        if let direct = row(Self.warm, "staticCompositionDirect", 16, 16),
           let asDelegate = row(Self.warm, "staticComposition", 16, 16) {
            let floor16 = try required(Self.warm, Self.floor, 16, 16)
            var caveat = "As a delegate, hold it in a type of your own (`ComposedScrollViewDelegate`)"
            if let generic = row(Self.warm, "staticCompositionGeneric", 16, 16) {
                caveat += ": the group itself as the delegate costs \(Self.format(ns(generic), 0)) ns per delivery"
            }
            lines.append("| Behaviours fixed where the screen is built | `StaticComposition` (`import FanoutStatic`) | "
                + String(repeating: "– | ", count: small.count)
                + "\(Self.format(ns(direct), 2)) on its type, \(Self.format(ns(asDelegate), 2)) as a delegate, at width 16"
                + " (\(Self.format(ns(asDelegate) / ns(floor16), 2))×) | \(caveat) |")
        }
        var claims: [String] = []
        if let one = row(Self.warm, "existentialArray", 1, 1), let indirect = row(Self.warm, Self.floor, 1, 1) {
            claims.append("- **Over calling one delegate**: one target through `existentialArray` costs"
                + " \(Self.format(ns(one), 1)) ns per message, against \(Self.format(ns(indirect), 1)) ns for one"
                + " indirect call (`cFunctionPointer` at width 1): the multiplexer's fixed cost is"
                + " \(Self.format(ns(one) - ns(indirect), 1)) ns per message.")
        }
        let typed = try required(Self.warm, "selectorDictionary", width, width)
        if let forward = row(BenchmarkFamilies.benchmark(for: .forwarding), "selectorDictionary", width, width) {
            var text = "- **Forwarding by name** (`forward(_:arguments:)`): \(Self.format(ns(forward), 1)) ns per delivery"
                + " at width \(width), \(Self.format(ns(forward) / ns(typed), 1))× the typed dispatch"
            if let objc = row(Self.warm, "objcForwardInvocation", width, width) {
                text += "; Objective-C `forwardInvocation:` on GNUstep \(Self.format(ns(objc), 0)) ns"
                    + " (\(Self.format(ns(objc) / ns(forward), 0))× slower)"
            }
            claims.append(text + ".")
        }
        if let strong = row(Self.cold, "existentialArray", width, width), let weak = row(Self.cold, "weakArray", width, width) {
            claims.append("- **Cold caches** (flushed before each message): `existentialArray` \(Self.format(ns(strong), 0))"
                + " ns per delivery, `weakArray` \(Self.format(ns(weak), 0)) ns, against"
                + " \(Self.format(ns(try required(Self.warm, "existentialArray", width, width)), 1)) and"
                + " \(Self.format(ns(try required(Self.warm, "weakArray", width, width)), 1)) warm.")
        }
        let shares = ["existentialArray", "weakArray"].compactMap { strategy -> String? in
            let key = { (message: String) in CaseID(benchmark: BenchmarkFamilies.benchmark(for: .work), strategy: strategy, message: message, width: 16, responders: 16) }
            guard let bare = rows[key("0ns")], let loaded = rows[key("1000ns")] else { return nil }
            return "`\(strategy)` \(Self.format(100 * ns(bare) / ns(loaded), 1)) %"
        }
        if !shares.isEmpty {
            claims.append("- **With real work** (1 µs per callback, 16 targets, warm), dispatch is "
                + shares.joined(separator: ", ")
                + " of each delivery: below a few hundred targets the choice matters only for weak references.")
        }
        if let first = contention.first {
            claims.append("- **Threads**: `concurrent` with "
                + contention.map { "\(Self.contentionLabel($0.message)) \(Self.format(ns($0), 1)) ns" }.joined(separator: ", ")
                + " per delivery (width \(first.width)).")
        }
        if !claims.isEmpty { lines += [""] + claims }
        lines += ["", "(didScroll, ns per delivery, medians, × the C floor with the same targets; at widths 1 and 4"
            + " every target responds; the C floor is"
            + " `cFunctionPointer`, \(Self.format(ns(cFloor), 1)) ns per delivery at width \(width): a C loop over"
            + " (context, function pointer) pairs;" + processNote + " printed by `swift run -c release bench page \(file)` from the run at"
            + " \(commits.joined(separator: ", ")) on \(cpus.joined(separator: ", ")))"]
        return lines
    }

    /// The README's table: one figure per cell, `didScroll` at `width` (4, the widths screens have), every target
    /// responding; each need's multiplexer, its ns per delivery, that over the C floor's, and the short caveat.
    func briefLines(width: Int) throws(Missing) -> [String] {
        let floor = try required(Self.warm, Self.floor, width, width).nanosecondsPerDelivery
        var lines = ["| need | multiplexer | ns per delivery | × a C loop | caveat |", "|---|---|--:|--:|---|"]
        func cells(_ measured: ResultRow) -> String {
            let ns = measured.nanosecondsPerDelivery
            return "\(Self.format(ns, ns < 1 ? 2 : 1)) | \(Self.format(ns / floor, ns / floor < 1 ? 2 : 1))×"
        }
        for need in Self.needs {
            let measured = try required(Self.warm, need.strategy, width, width)
            lines.append("| \(need.need) | `\(need.type)` | \(cells(measured)) | \(priced(need.brief)) |")
        }
        if let composed = row(Self.warm, "staticComposition", width, width) {
            lines.append("| Behaviours fixed where the screen is built | `StaticComposition` | \(cells(composed))"
                + " | `import FanoutStatic`; as a delegate, held in a type of your own. |")
        }
        let shown = FigureSource(Self.needs.compactMap { row(Self.warm, $0.strategy, width, width) })
        let (runs, processes) = (shown.runs, shown.processes)
        var source = runs > 1 ? ", the mean of \(runs) full runs" : ""
        if processes > 1 { source += (runs > 1 ? " of " : ", the mean of ") + "\(processes) fresh processes" }
        let trust =
            shown.medianInterval.map {
                " A rerun falls within ±\(Self.format($0 * 100, 1)) % of a figure nine times in ten (the median interval)."
            } ?? ""
        lines += ["", "ns per delivery of `didScroll` to \(width) targets, all responding\(source).\(trust)"
            + " × a C loop: against C code calling the same targets through function pointers."
            + " \(cpus.joined(separator: ", ")), commit \(commits.map { String($0.prefix(7)) }.joined(separator: ", ")):"
            + " `swift run -c release bench guide`."]
        return lines
    }

    /// The width the README's table shows: 4 (the widths screens have) when the run has it, else the smallest.
    static func briefWidth(of rows: [ResultRow]) -> Int? {
        let widths = Set(rows.filter { $0.benchmark == Self.warm && $0.strategy == Self.floor && $0.width == $0.responders }.map(\.width))
        return widths.contains(4) ? 4 : widths.min()
    }

    /// A published figure with its interval (``ResultRow/interval``: a rerun falls within ± it nine times in ten),
    /// marked `≈` when that is beyond ±5 %.
    static func figure(_ row: ResultRow, _ value: Double) -> String {
        guard let interval = row.interval else { return format(value, 1) }
        let mark = FigureSource.isLoose(row) ? "≈" : ""
        // A no-break space, so that a narrow column never parts a figure from its interval.
        return "\(mark)\(format(value, 1))\u{00A0}±\(format(interval * 100, 1))%"
    }

    /// What the note under the table says of the figures' intervals: from how many runs on the CPU, or this run's
    /// processes only.
    var processNote: String {
        let published = FigureSource(rows.values.filter { $0.interval != nil })
        let (processes, runs, recorded) = (published.processes, published.runs, published.recorded)
        guard processes > 1 else { return "" }
        let source =
            runs > 1 ? "the mean of \(runs) full runs of \(processes) processes, ± the spread between them"
            : recorded > 0 ? "\(processes) processes, ± from them and \(recorded) runs recorded on this CPU"
            : "\(processes) processes, ± from them only (no run recorded on this CPU)"
        return " each figure with every target responding is \(source): a rerun falls within ± nine times in ten"
            + " (≈ beyond ±5 %);"
    }

    /// `value` with `decimals` decimals, rounded to nearest.
    static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A contention case's message in words: `2dispatchers+mutator` reads "2 dispatchers and a mutator".
    static func contentionLabel(_ message: String) -> String {
        let digits = message.prefix { $0.isNumber }
        var rest = message.dropFirst(digits.count)
        guard !digits.isEmpty, rest.hasPrefix("dispatcher") else { return message }
        let mutator = rest.hasSuffix("+mutator")
        if mutator { rest = rest.dropLast("+mutator".count) }
        guard rest == "dispatcher" || rest == "dispatchers" else { return message }
        return "\(digits) \(rest)" + (mutator ? " and a mutator" : "")
    }
}
