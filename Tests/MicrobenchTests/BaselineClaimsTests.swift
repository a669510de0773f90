import Foundation
import FanoutMicrobench
import Testing

/// The forwarding and static composition goals the docs state, checked against the committed gate
/// baseline of the platform the docs' figures come from
/// (`Results/baselines/linux-x86_64-6.3.1.csv`), which `bench check` holds the
/// code to there: a change that breaks a goal must re-record the baseline, and
/// then fails here.
@Suite("The committed baseline meets the stated forwarding and static composition goals")
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

    // The bounds were 3x and 4x (4.5x for two arguments) while the typed dispatch called the closures forward calls.
    // Since it calls the targets through the descriptor (since ea489ed) it makes 13-19 instructions per delivery where it
    // made 27-34, and forward, unchanged (39-46), is 2.4-3.0x it per delivery and 3.5-4.3x at 16 targets; the gate holds
    // forward's own counts.
    @Test("forward per delivery: at most 3.5x the typed dispatch from 256 targets, 4.5x at 16 with its fixed cost",
          arguments: messages)
    func forwardPerDelivery(message: String) throws {
        let wide = try perDelivery("forward", message, width: 256, sparse: 16)
        let typedWide = try perDelivery("dispatch", message, width: 256, sparse: 16)
        #expect(wide <= 3.5 * typedWide, "\(message): \(wide) vs typed \(typedWide) instructions per delivery at 256")
        // At 16 targets, everything forward does per message counts, divided among
        // the 16 deliveries: only the arguments array the caller builds is left out.
        let arguments = try value("forward", "argumentsArray", message, 1, 1, "instructions_per_op")
        let narrow = try value("forward", "selectorDictionary", message, 16, 16, "instructions_per_op") - arguments
        let typedNarrow = try value("dispatch", "selectorDictionary", message, 16, 16, "instructions_per_op")
        #expect(narrow <= 4.5 * typedNarrow, "\(message): \(narrow) vs typed \(typedNarrow) instructions per message at 16")
    }

    @Test("finding a selector in 64 messages costs at most 1.2x finding it in 4")
    func lookupIsConstant() throws {
        let four = try value("forwardLookup", "selectorDictionary", "of4", 1, 1, "instructions_per_op")
        let sixtyFour = try value("forwardLookup", "selectorDictionary", "of64", 1, 1, "instructions_per_op")
        #expect(sixtyFour <= 1.2 * four, "\(sixtyFour) vs \(four) instructions per forward")
    }

    /// The static composition's widths in the gate, with the responder counts
    /// the dispatch matrix gives them (every element, and one).
    static let staticCases = [(1, 1), (2, 2), (2, 1), (4, 4), (4, 1), (8, 8), (8, 1), (16, 16), (16, 1)]

    @Test("a static composition makes no allocation, retain or release per message", arguments: messages)
    func staticCompositionCountsNothing(message: String) throws {
        for strategy in ["staticComposition", "staticCompositionDirect"] {
            for (width, responders) in Self.staticCases {
                for metric in ["mallocs_per_op", "retains_per_op", "releases_per_op"] {
                    let count = try value("dispatch", strategy, message, width, responders, metric)
                    #expect(count == 0, "\(strategy) \(message) \(width)/\(responders): \(count) \(metric)")
                }
            }
        }
    }

    @Test("a static composition through the protocol: at most 1/3 of existentialArray's instructions, 1/2 sparse",
          arguments: messages)
    func staticCompositionInstructions(message: String) throws {
        for (width, responders) in Self.staticCases {
            let group = try value("dispatch", "staticComposition", message, width, responders, "instructions_per_op")
            let array = try value("dispatch", "existentialArray", message, width, responders, "instructions_per_op")
            let bound = responders == width ? array / 3 : array / 2
            #expect(group <= bound, "\(message) \(width)/\(responders): \(group) vs existentialArray's \(array)")
        }
    }

    @Test("a static composition of 2, 4 and 8 through the protocol: at most one witness call above the floor",
          arguments: messages)
    func staticCompositionNearTheFloor(message: String) throws {
        // One witness call: a group of one called through the protocol, less the same group called on its type.
        let witnessCall = try value("dispatch", "staticComposition", message, 1, 1, "instructions_per_op")
            - value("dispatch", "staticCompositionDirect", message, 1, 1, "instructions_per_op")
        for width in [2, 4, 8] {
            let group = try value("dispatch", "staticComposition", message, width, width, "instructions_per_op")
            let floor = try value("dispatch", "floor", message, width, width, "instructions_per_op")
            #expect(witnessCall > 0 && group - floor <= witnessCall,
                    "\(message) at \(width): \(group) vs the floor's \(floor), one witness call \(witnessCall)")
        }
    }
}
