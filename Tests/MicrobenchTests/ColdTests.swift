import Foundation
@testable import FanoutMicrobench
import Testing

@Suite("Cold measurements: eviction, one-operation samples, the cache simulation's dumps")
struct ColdTests {
    @Test("recording names every block allocated inside it, and only those")
    func recordsBlocks() {
        let before = malloc(48)
        let (pointers, eviction) = Eviction.recording { [malloc(100), calloc(3, 40), malloc(4000)] }
        let after = malloc(48)
        defer { ([before, after] + pointers).forEach { free($0) } }
        if Counters.areCompiledOut {
            #expect(eviction.blocks.isEmpty, "a sanitizer build records nothing")
            return
        }
        // The body's own array is recorded too: everything allocated inside counts.
        let expected = zip(pointers, [100, 120, 4000]).map { Eviction.Block(start: UInt(bitPattern: $0), bytes: $1) }
        #expect(expected.allSatisfy(eviction.blocks.contains))
        #expect(!eviction.blocks.contains { [before, after].contains(UnsafeMutableRawPointer(bitPattern: $0.start)) })
        #expect(eviction.lines >= 2 + 2 + 63)
        eviction.flush()  // flushing is invisible to the program: the blocks still read back
    }

    @Test("a cold case evicts before every sample and times one operation per sample")
    func coldSamples() {
        final class Tally: @unchecked Sendable { var evictions = 0, operations = 0 }
        let tally = Tally()
        let id = CaseID(benchmark: "cold", strategy: "probe", message: "m", width: 1, responders: 1)
        let cold = BenchmarkCase(cold: id, deliveriesPerOperation: 1, samples: 7) {
            ColdBody(evict: { tally.evictions += 1 }, operation: { tally.operations += 1 })
        }
        var configuration = RunConfiguration()
        configuration.samples = 4
        configuration.rounds = 2
        configuration.countingIterations = 0
        let measurement = Runner(configuration: configuration).measure(cold)
        #expect(measurement.nanosecondsPerOperation.count == 7)
        #expect(measurement.iterations == 1)
        #expect(tally.evictions == 7 && tally.operations == 7)
    }

    @Test("the cache-miss pass sweeps the caches and zeroes the counts before every measured operation")
    func missPassSweepsFirst() {
        // The order of the pass's effects, recorded: a pass that skipped the sweep (or ran it after zeroing, so
        // that the sweep's own misses were counted) would measure a warm operation, or the sweep.
        final class Trace: @unchecked Sendable { var events: [String] = [] }
        let trace = Trace()
        let id = CaseID(benchmark: "cold", strategy: "probe", message: "m", width: 1, responders: 1)
        let cold = BenchmarkCase(cold: id, deliveriesPerOperation: 1, samples: 1) {
            ColdBody(evict: {}, operation: { trace.events.append("operation") })
        }
        let pass = CacheMissPass()
        pass.run([cold], sweep: { trace.events.append("sweep") }, zero: { trace.events.append("zero") },
                 dump: { trace.events.append("dump \($0)") })
        let measured = pass.labels(of: cold.name).flatMap { ["sweep", "zero", "operation", "dump \($0)"] }
        #expect(trace.events == ["operation"] + measured)
    }

    @Test("a cold operation's misses are the last-level read and write misses")
    func missesCountWrites() {
        // A write to a line not in the cache misses as a read does (a new stack frame, a stored field): a pass that
        // counted read misses only would report 3 here.
        let events: [String: UInt64] = ["DLmr": 3, "DLmw": 2, "D1mr": 40, "D1mw": 9, "Ir": 1_000]
        #expect(CacheMissPass.lastLevelMisses(events) == 5)
        #expect(CacheMissPass.lastLevelMisses(["DLmr": 4]) == 4)
    }

    @Test("the clock's own cost is measured and small")
    func clockCost() {
        let cost = Runner.clockCost()
        #expect(cost >= 0 && cost < 10_000)
    }

    @Test("a cache-simulation dump gives every event, trailing zeros included")
    func parsesEvents() throws {
        let text = """
            desc: Trigger: Client Request: cold/x#cold0
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            summary: 1200 400 100 3 20 5 3 18 4
            """
        let parsed = try #require(try Callgrind.parseEvents(text, file: "dump"))
        #expect(parsed.label == "cold/x#cold0")
        #expect(parsed.events["DLmr"] == 18 && parsed.events["DLmw"] == 4 && parsed.events["Ir"] == 1200)
        let short = try #require(try Callgrind.parseEvents(text.replacingOccurrences(of: " 18 4", with: ""), file: "dump"))
        #expect(short.events["DLmr"] == 0, "callgrind leaves out trailing zero events")
        #expect(throws: Callgrind.DumpError.self) {
            try Callgrind.parseEvents("desc: Trigger: Client Request: a\\nsummary: 1 x\\nevents: Ir Dr", file: "dump")
        }
        #expect(try Callgrind.parseEvents("events: Ir\\nsummary: 5", file: "dump") == nil, "no label: the exit dump")
    }

    @Test("the last-level cache size is read, and the sweep covers four times it")
    func sweepSize() {
        #expect(LastLevelSweep.lastLevelBytes >= 1 << 20)
        #expect(LastLevelSweep(bytes: 1 << 20).bytes == 1 << 20)
    }
}
