import Foundation
import FanoutMicrobench

/// The README's "Which strategy should I use?" table, printed by `bench guide [FILE]` from a results CSV: a row per
/// need with the strategy that meets it, its cost at widths 1 and 4 (the widths screens have, when the run has them)
/// and at the headline width, each against the C floor (`cFunctionPointer`) with the same targets, the cold figure
/// with its cache lines, and the caveat; then claims on one delegate, forwarding, cold caches, real work and
/// threads, each with its number. Every figure is `didScroll`'s median ns per delivery.
struct DecisionGuide {
    /// A row the table needs is not in the CSV.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// need, strategy, responders divisor (1: all respond; 16: one in sixteen), caveat
    static let needs: [(need: String, strategy: String, divisor: Int, caveat: String)] = [
        ("Targets you own, one thread: the default", "existentialArray", 1,
         "Holds targets strongly until removed; visits every target for every message."),
        ("Many targets, few implement each message", "closureTable", 16,
         "`add` costs more (an entry in each implemented message's list) and each target takes more memory."),
        ("Messages named at run time (`forward`)", "selectorDictionary", 1,
         "Typed dispatch costs as `closureTable`; `forward` boxes its arguments."),
        ("Must not keep targets alive, any target type", "weakArray", 1,
         "A weak load per target per message: the slowest strategy."),
        ("Behaviours that end with their screen", "lifetimeBoundToOwner", 1,
         "`add(_:boundTo: owner)`; `add(_:)` is weak and retains each holder per call."),
        ("Messages sent from several threads", "concurrent", 1, "Targets must be safe to call concurrently."),
    ]

    let rows: [CaseID: ResultRow]
    let contention: [ResultRow]
    let file: String
    let commits: [String]
    /// The CPUs the rows were measured on: every ratio is one CPU's.
    let cpus: [String]

    init(rows: [ResultRow], file: String) {
        self.rows = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        contention = rows.filter { $0.benchmark == "contention" }
        self.file = file
        commits = Array(Set(rows.map(\.metadata.commit))).sorted()
        cpus = Array(Set(rows.map(\.metadata.cpu))).sorted()
    }

    /// The headline width of `rows`: the dense `dispatch` width nearest 64, of at least 16 (the sparse row needs
    /// one in sixteen).
    static func headlineWidth(of rows: [ResultRow]) -> Int? {
        let widths = Set(rows.filter { $0.benchmark == "dispatch" && $0.width == $0.responders && $0.width >= 16 }.map(\.width))
        return SummaryTable.headlineWidth(Array(widths))
    }

    func row(_ benchmark: String, _ strategy: String, _ width: Int, _ responders: Int) -> ResultRow? {
        rows[CaseID(benchmark: benchmark, strategy: strategy, message: "didScroll", width: width, responders: responders)]
    }

    func required(_ benchmark: String, _ strategy: String, _ width: Int, _ responders: Int) throws(Missing) -> ResultRow {
        guard let found = row(benchmark, strategy, width, responders) else {
            throw Missing(description: "\(file): no \(benchmark)/\(strategy)/didScroll/\(width)/\(responders) row")
        }
        return found
    }

    /// The table and its claims, as Markdown lines.
    func lines(width: Int) throws(Missing) -> [String] {
        func ns(_ row: ResultRow) -> Double { row.nanosecondsPerDelivery }
        func warm(_ strategy: String, _ width: Int, _ responders: Int) throws(Missing) -> String {
            let measured = try required("dispatch", strategy, width, responders)
            let reference = try required("dispatch", "cFunctionPointer", width, responders)
            return Self.figure(measured, ns(measured)) + " (\(Self.format(ns(measured) / ns(reference), 1))×"
        }
        var lines: [String] = []
        let cFloor = try required("dispatch", "cFunctionPointer", width, width)
        let small = [1, 4].filter { row("dispatch", "cFunctionPointer", $0, $0) != nil }
        lines.append("| need | strategy | " + small.map { "width \($0) | " }.joined()
            + "width \(width): warm · cold (lines) | caveat |")
        lines.append("|---|---|" + String(repeating: "---|", count: small.count) + "---|---|")
        for (need, strategy, divisor, caveat) in Self.needs {
            let responders = width / divisor
            let name = strategy.hasPrefix("lifetimeBound") ? "lifetimeBound" : strategy
            var coldText = ""
            if let cold = row("cold", name, width, responders) {
                coldText = " · \(Self.format(ns(cold), 0))"
                if let lines = cold.cacheMissesPerDelivery { coldText += " (\(Self.format(lines, 1)) lines)" }
            }
            let sparse = divisor > 1 ? ", \(responders) of \(width) respond" : ""
            var cells = ""
            for w in small { cells += try warm(strategy, w, w) + ") | " }
            lines.append("| \(need) | `\(name)` | " + cells + (try warm(strategy, width, responders)) + "\(sparse))\(coldText) | \(caveat) |")
        }
        if let direct = row("dispatch", "staticCompositionDirect", 16, 16),
           let asDelegate = row("dispatch", "staticComposition", 16, 16) {
            let floor16 = try required("dispatch", "cFunctionPointer", 16, 16)
            var caveat = "As a delegate, hold it in a type of your own (`ComposedScrollViewDelegate`)"
            if let generic = row("dispatch", "staticCompositionGeneric", 16, 16) {
                caveat += ": the group itself as the delegate costs \(Self.format(ns(generic), 0)) ns per delivery"
            }
            lines.append("| Behaviours fixed where the screen is built | `StaticComposition` (`import FanoutStatic`) | "
                + String(repeating: "– | ", count: small.count)
                + "\(Self.format(ns(direct), 2)) on its type, \(Self.format(ns(asDelegate), 2)) as a delegate, at width 16"
                + " (\(Self.format(ns(asDelegate) / ns(floor16), 2))×) | \(caveat) |")
        }
        var claims: [String] = []
        if let one = row("dispatch", "existentialArray", 1, 1), let indirect = row("dispatch", "cFunctionPointer", 1, 1) {
            claims.append("- **Over calling one delegate**: one target through `existentialArray` costs"
                + " \(Self.format(ns(one), 1)) ns per message, against \(Self.format(ns(indirect), 1)) ns for one"
                + " indirect call (`cFunctionPointer` at width 1): the multiplexer's fixed cost is"
                + " \(Self.format(ns(one) - ns(indirect), 1)) ns per message.")
        }
        let typed = try required("dispatch", "selectorDictionary", width, width)
        if let forward = row("forward", "selectorDictionary", width, width) {
            var text = "- **Forwarding by name** (`forward(_:arguments:)`): \(Self.format(ns(forward), 1)) ns per delivery"
                + " at width \(width), \(Self.format(ns(forward) / ns(typed), 1))× the typed dispatch"
            if let objc = row("dispatch", "objcForwardInvocation", width, width) {
                text += "; Objective-C `forwardInvocation:` on GNUstep \(Self.format(ns(objc), 0)) ns"
                    + " (\(Self.format(ns(objc) / ns(forward), 0))× slower)"
            }
            claims.append(text + ".")
        }
        if let strong = row("cold", "existentialArray", width, width), let weak = row("cold", "weakArray", width, width) {
            claims.append("- **Cold caches** (flushed before each message): `existentialArray` \(Self.format(ns(strong), 0))"
                + " ns per delivery, `weakArray` \(Self.format(ns(weak), 0)) ns, against"
                + " \(Self.format(ns(try required("dispatch", "existentialArray", width, width)), 1)) and"
                + " \(Self.format(ns(try required("dispatch", "weakArray", width, width)), 1)) warm.")
        }
        let shares = ["existentialArray", "weakArray"].compactMap { strategy -> String? in
            let key = { (message: String) in CaseID(benchmark: "work", strategy: strategy, message: message, width: 16, responders: 16) }
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
            + " (context, function pointer) pairs;" + processNote + " printed by `swift run -c release bench guide \(file)` from the run at"
            + " \(commits.joined(separator: ", ")) on \(cpus.joined(separator: ", ")))"]
        return lines
    }

    /// A published figure, with its spread over processes when several measured it (± half the range of the
    /// processes averaged, ``ProcessFigure``), marked `≈` when that is more than ±5 %.
    static func figure(_ row: ResultRow, _ value: Double) -> String {
        guard let spread = row.processSpread, row.processes ?? 0 > 1 else { return format(value, 1) }
        let mark = spread > DispatchFamily.repeatedWithin ? "≈" : ""
        // A no-break space, so that a narrow column never parts a figure from its spread.
        return "\(mark)\(format(value, 1))\u{00A0}±\(format(spread * 50, 1))%"
    }

    /// What the note under the table says of the processes, when the figures come from several.
    var processNote: String {
        guard let processes = rows.values.compactMap(\.processes).max(), processes > 1 else { return "" }
        return " each figure with every target responding comes from \(processes) processes (± half the range of"
            + " those that set it; ≈ where that is more than ±5 %);"
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
