import Foundation
import Microbench
import Testing

/// The forwarding goals the docs state, checked against the committed gate
/// baseline of the platform the docs' figures come from
/// (`Results/baselines/linux-x86_64-6.3.1.csv`), which `bench check` holds the
/// code to there: a change that breaks a goal must re-record the baseline, and
/// then fails here.
@Suite("The committed baseline meets the stated forwarding goals")
struct BaselineClaimsTests {
    /// The platform whose baseline the docs quote.
    static let documented = GatePlatform(os: "linux", arch: "x86_64", swiftVersion: "6.3.1")
    static let messages = ["didScroll", "didEndDragging", "shouldScrollToTop", "viewForZooming"]

    let records: [CaseID: [String: Double]]

    init() throws {
        let path = packageRoot + "/" + Self.documented.baselinePath
        let parsed = try GateRecord.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
        records = Dictionary(uniqueKeysWithValues: parsed.map { ($0.id, $0.values) })
    }

    func value(_ benchmark: String, _ strategy: String, _ message: String, _ width: Int, _ responders: Int,
               _ metric: String) throws -> Double {
        let id = CaseID(benchmark: benchmark, strategy: strategy, message: message, width: width, responders: responders)
        return try #require(records[id]?[metric], "\(id.name) \(metric) is not in the baseline")
    }

    /// Instructions per delivery beyond the fixed cost: the difference between
    /// `width` targets all responding and `sparse` of them, per extra delivery.
    func perDelivery(_ benchmark: String, _ message: String, width: Int, sparse: Int) throws -> Double {
        let dense = try value(benchmark, "selectorDictionary", message, width, width, "instructions_per_op")
        let few = try value(benchmark, "selectorDictionary", message, width, sparse, "instructions_per_op")
        return (dense - few) / Double(width - sparse)
    }

    @Test("forward makes at most one allocation of its own per message, at every width", arguments: messages)
    func forwardAllocations(message: String) throws {
        let arguments = try value("forward", "argumentsArray", message, 1, 1, "mallocs_per_op")
        for (width, responders) in [(1, 1), (16, 16), (16, 1), (256, 256), (256, 16)] {
            let total = try value("forward", "selectorDictionary", message, width, responders, "mallocs_per_op")
            #expect(total - arguments <= 1, "\(message) \(width)/\(responders): \(total) mallocs, \(arguments) for the arguments")
        }
    }

    @Test("forward per delivery: at most 3x the typed dispatch from 256 targets, 4x at 16 with its fixed cost", arguments: messages)
    func forwardPerDelivery(message: String) throws {
        let wide = try perDelivery("forward", message, width: 256, sparse: 16)
        let typedWide = try perDelivery("dispatch", message, width: 256, sparse: 16)
        #expect(wide <= 3 * typedWide, "\(message): \(wide) vs typed \(typedWide) instructions per delivery at 256")
        // At 16 targets, everything forward does per message counts, divided among
        // the 16 deliveries: only the arguments array the caller builds is left out.
        let arguments = try value("forward", "argumentsArray", message, 1, 1, "instructions_per_op")
        let narrow = try value("forward", "selectorDictionary", message, 16, 16, "instructions_per_op") - arguments
        let typedNarrow = try value("dispatch", "selectorDictionary", message, 16, 16, "instructions_per_op")
        #expect(narrow <= 4 * typedNarrow, "\(message): \(narrow) vs typed \(typedNarrow) instructions per message at 16")
    }

    @Test("finding a selector in 64 messages costs at most 1.2x finding it in 4")
    func lookupIsConstant() throws {
        let four = try value("forwardLookup", "selectorDictionary", "of4", 1, 1, "instructions_per_op")
        let sixtyFour = try value("forwardLookup", "selectorDictionary", "of64", 1, 1, "instructions_per_op")
        #expect(sixtyFour <= 1.2 * four, "\(sixtyFour) vs \(four) instructions per forward")
    }
}
