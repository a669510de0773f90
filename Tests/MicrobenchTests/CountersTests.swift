import Microbench
import Testing

private final class Box {
    var value = 0
}

/// Runs `body` `iterations` times with counting on and divides.
private func countsPerOperation(iterations: Int = 100, _ body: () -> Void) -> CountsPerOperation {
    let reading = Counters.count {
        for _ in 0..<iterations { body() }
    }
    return CountsPerOperation(reading, iterations: iterations)
}

/// `k` unbalanced retains, then `k` releases: exactly `k` calls to each
/// runtime function once optimized (this test target is built with `-O`;
/// unoptimized, each `retain()` also copies the reference: 3 calls).
@inline(never)
private func retainThenRelease(_ object: Unmanaged<Box>, times k: Int) {
    for _ in 0..<k { _ = object.retain() }
    for _ in 0..<k { object.release() }
}

@Suite("Allocation and ARC counters", .enabled(if: Counters.areAvailable, "built without the counting hooks (a sanitizer build)"))
struct CountersTests {
    @Test("the test binary has the counting hooks")
    func hooksArePresent() {
        #expect(Counters.areAvailable)
    }

    @Test("a case that allocates k objects per operation counts k mallocs", arguments: [0, 1, 3])
    func countsAllocations(k: Int) {
        let counts = countsPerOperation {
            for _ in 0..<k { blackHole(Box()) }
        }
        #expect(counts.mallocs == Double(k))
        #expect(counts.bytes >= Double(k * 16), "each object requests at least its header")
    }

    @Test("k unbalanced retains then k releases count k of each", arguments: [0, 1, 3])
    func countsRetainsAndReleases(k: Int) {
        let object = Unmanaged.passRetained(Box())
        defer { object.release() }
        let counts = countsPerOperation { retainThenRelease(object, times: k) }
        #expect(counts.retains == Double(k))
        #expect(counts.releases == Double(k))
        #expect(counts.mallocs == 0)
    }

    @Test("an empty case counts zero everywhere")
    func emptyCaseCountsNothing() {
        let counts = countsPerOperation {}
        #expect(counts == CountsPerOperation(mallocs: 0, bytes: 0, retains: 0, releases: 0))
    }

    @Test("bytes count what was requested")
    func countsBytes() {
        let counts = countsPerOperation(iterations: 10) {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: 1000, alignment: 8)
            pointer.deallocate()
        }
        #expect(counts.mallocs == 1)
        #expect(counts.bytes == 1000)
    }

    @Test("heap in use grows by what is kept alive")
    func heapGrowth() {
        let before = Counters.heapInUse
        let kept = (0..<1000).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 100, alignment: 8) }
        let after = Counters.heapInUse
        for pointer in kept { pointer.deallocate() }
        #expect(after - before >= 100_000)
        #expect(after - before < 150_000, "chunk headers add at most a few bytes each")
    }

    @Test("counting is per thread: another thread's allocations are not counted")
    func countsOnlyTheCallingThread() async {
        let reading = Counters.count {
            let other = Thread { for _ in 0..<1000 { blackHole(Box()) } }
            other.start()
            other.join()
        }
        #expect(reading.mallocs <= 2, "only the thread's own bookkeeping, not its 1000 objects (got \(reading.mallocs))")
    }

    @Test("measuring the same case twice gives identical counts")
    func countsAreRepeatable() {
        var configuration = RunConfiguration()
        configuration.samples = 3
        configuration.sampleTimeMilliseconds = 0.1
        configuration.warmUpMilliseconds = 0.1
        let runner = Runner(configuration: configuration)
        let benchmarkCase = BenchmarkCase(
            benchmark: "test", strategy: "boxes", message: "allocate", width: 2, responders: 2,
            deliveriesPerOperation: 2
        ) {
            let object = Unmanaged.passRetained(Box())
            return { iterations in
                for _ in 0..<iterations {
                    blackHole(Box())
                    blackHole(Box())
                    _ = object.retain()
                    object.release()
                }
            }
        }
        let first = runner.measure(benchmarkCase).countsPerOperation
        let second = runner.measure(benchmarkCase).countsPerOperation
        #expect(first != nil)
        #expect(first == second)
        #expect(first?.mallocs == 2)
    }
}
