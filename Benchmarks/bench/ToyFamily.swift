import FanoutMicrobench
import Foundation

/// `toy`: a family that exists to prove the registry (Tests/MicrobenchTests/FamilyRegistryTests.swift). It is what
/// adding a family takes, this file and its line in ``BenchmarkFamilies/all``, and is registered only where
/// `FANOUT_TOY_FAMILY` is set, so that the test finds it in `list`, a run's CSV and charts, and the gate with
/// nothing else changed.
enum ToyFamily: BenchmarkFamily {
    /// Read with `getenv`, which allocates nothing: the gate's set-up counts depend on the heap's layout, and with
    /// `ProcessInfo.processInfo.environment` here they differed between two checks of one build (prove-gate).
    static var isRegistered: Bool { getenv("FANOUT_TOY_FAMILY") != nil }

    static let contenders = ["toyCounter"]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        selection.includesDidScroll ? [counterCase] : []
    }

    static var gateCases: [BenchmarkCase] { [counterCase] }

    /// A counter incremented once per operation, through a function the optimizer cannot see into.
    static var counterCase: BenchmarkCase {
        let id = CaseID(benchmark: "toy", strategy: "toyCounter", message: "didScroll", width: 1, responders: 1)
        return BenchmarkCase(id, deliveriesPerOperation: 1) {
            var count = 0
            let increment = identity { (value: inout Int) in value &+= 1 }
            return { iterations in
                for _ in 0..<iterations { increment(&count) }
                blackHole(count)
            }
        }
    }

    static let charts = [
        ChartSpec(file: "toy", kind: "bars", title: "The toy family", parameters: ["benchmark": "toy", "y": "ns_per_op_median"])
    ]
}
