#if canImport(Glibc)
import Glibc
#endif
import FanoutMicrobench
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

/// The function the program would call under `name`: what the dynamic
/// linker resolves the exported symbol to (the interposed definition, when
/// the hooks are in), never the shim's own name.
private func exported<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let symbol = dlsym(nil, name) else { preconditionFailure("\(name) is not exported") }
    return unsafeBitCast(symbol, to: type)
}

private typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
private typealias RetainN = @convention(c) (UnsafeMutableRawPointer, UInt32) -> UnsafeMutableRawPointer
private typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void
private typealias ReleaseN = @convention(c) (UnsafeMutableRawPointer, UInt32) -> Void

/// Counts one body, with a pointer to a live object to retain and release.
private func counting(_ body: (UnsafeMutableRawPointer) -> Void) -> CounterReading {
    let object = Unmanaged.passRetained(Box())
    defer { object.release() }
    return Counters.count { body(object.toOpaque()) }
}

/// Calls `swift_tryRetain` on itself from its deinit, counting.
private final class TriesToRetainItselfInDeinit {
    nonisolated(unsafe) static var reading: CounterReading?
    nonisolated(unsafe) static var retained: Bool?
    deinit {
        let tryRetain = exported("swift_tryRetain", as: Retain.self)
        let object = Unmanaged.passUnretained(self).toOpaque()
        var result: UnsafeMutableRawPointer?
        Self.reading = Counters.count { result = tryRetain(object) }
        Self.retained = result != nil
    }
}

@Test("the counting hooks are in every build but a sanitizer build or one off glibc, which leave them out on purpose")
func hooksMatchTheBuild() {
    #expect(Counters.areAvailable == !Counters.areCompiledOut)
    #if canImport(Glibc)
    #expect(!Counters.areCompiledOutOffGlibc, "this is a glibc build")
    #endif
}

@Suite(
    "Allocation and ARC counters",
    .enabled(if: !Counters.areCompiledOut, "the sanitizer interposes the allocator itself, or the C library is not glibc"))
struct CountersTests {
    // MARK: Allocator entry points

    @Test("k objects of 24 bytes count k mallocs, exactly 24k bytes and k frees", arguments: [0, 1, 3])
    func countsObjects(k: Int) {
        let counts = Counters.count {
            for _ in 0..<k { blackHole(Box()) }
        }
        #expect(counts.mallocs == UInt64(k))
        #expect(counts.bytes == UInt64(24 * k), "16 bytes of header and one Int")
        #expect(counts.frees == UInt64(k))
    }

    @Test("malloc and free, called as the program calls them and through the exported symbols")
    func mallocAndFree() {
        blackHole(UnsafeMutableRawPointer?.none)  // instantiates the type's metadata (an allocation) beforehand
        let direct = Counters.count {
            let pointer = malloc(1000)
            blackHole(pointer)  // a malloc whose memory is never used may be optimized away with its free
            free(pointer)
        }
        #expect(direct == CounterReading(mallocs: 1, bytes: 1000, retains: 0, releases: 0, frees: 1))
        let exportedMalloc = exported("malloc", as: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self)
        let exportedFree = exported("free", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
        let viaSymbols = Counters.count {
            let first = exportedMalloc(40), second = exportedMalloc(2)
            exportedFree(first)
            exportedFree(second)
            exportedFree(nil)
        }
        #expect(viaSymbols == CounterReading(mallocs: 2, bytes: 42, retains: 0, releases: 0, frees: 2),
                "free(NULL) is not a free")
    }

    @Test("calloc counts one allocation of count × size bytes")
    func callocCounts() {
        let exportedCalloc = exported("calloc", as: (@convention(c) (Int, Int) -> UnsafeMutableRawPointer?).self)
        var first: UnsafeMutableRawPointer?, second: UnsafeMutableRawPointer?
        let counts = Counters.count {
            first = calloc(3, 40)
            second = exportedCalloc(5, 8)
        }
        free(first)
        free(second)
        #expect(counts == CounterReading(mallocs: 2, bytes: 3 * 40 + 5 * 8, retains: 0, releases: 0))
    }

    @Test("realloc counts one allocation of the new size, growing, shrinking or from NULL")
    func reallocCounts() {
        let exportedRealloc = exported(
            "realloc", as: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?).self)
        var pointer = malloc(100)
        let growth = Counters.count { pointer = realloc(pointer, 1000) }
        #expect(growth == CounterReading(mallocs: 1, bytes: 1000, retains: 0, releases: 0))
        let shrink = Counters.count { pointer = exportedRealloc(pointer, 10) }
        #expect(shrink == CounterReading(mallocs: 1, bytes: 10, retains: 0, releases: 0))
        free(pointer)
        let fresh = Counters.count { pointer = realloc(nil, 64) }
        #expect(fresh == CounterReading(mallocs: 1, bytes: 64, retains: 0, releases: 0))
        free(pointer)
    }

    @Test("posix_memalign and aligned_alloc count one allocation each and honour alignment 64")
    func alignedAllocations() {
        let exportedMemalign = exported(
            "posix_memalign",
            as: (@convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int, Int) -> Int32).self)
        let exportedAlignedAlloc = exported("aligned_alloc", as: (@convention(c) (Int, Int) -> UnsafeMutableRawPointer?).self)
        var first: UnsafeMutableRawPointer?, second: UnsafeMutableRawPointer?
        var third: UnsafeMutableRawPointer?, fourth: UnsafeMutableRawPointer?
        var statuses = (Int32(-1), Int32(-1))
        let counts = Counters.count {
            statuses.0 = posix_memalign(&first, 64, 100)
            statuses.1 = exportedMemalign(&second, 64, 200)
            third = aligned_alloc(64, 128)
            fourth = exportedAlignedAlloc(64, 256)
        }
        #expect(statuses == (0, 0))
        #expect(counts == CounterReading(mallocs: 4, bytes: 100 + 200 + 128 + 256, retains: 0, releases: 0))
        for pointer in [first, second, third, fourth] {
            #expect(pointer.map { UInt(bitPattern: $0) % 64 } == 0)
            free(pointer)
        }
    }

    @Test("bytes count exactly what was requested")
    func countsBytes() {
        let counts = countsPerOperation(iterations: 10) {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: 1000, alignment: 8)
            pointer.deallocate()
        }
        #expect(counts.mallocs == 1)
        #expect(counts.bytes == 1000)
    }

    // MARK: Reference-counting entry points

    @Test("k unbalanced retains then k releases count k of each", arguments: [0, 1, 3])
    func countsRetainsAndReleases(k: Int) {
        let object = Unmanaged.passRetained(Box())
        defer { object.release() }
        let counts = countsPerOperation { retainThenRelease(object, times: k) }
        #expect(counts.retains == Double(k))
        #expect(counts.releases == Double(k))
        #expect(counts.mallocs == 0)
    }

    @Test("each retain and release entry point counts one call, through its exported symbol", arguments: [
        ("swift_retain", "swift_release"),
        ("swift_tryRetain", "swift_release"),
        ("swift_nonatomic_retain", "swift_nonatomic_release"),
        ("swift_bridgeObjectRetain", "swift_bridgeObjectRelease"),
        ("swift_nonatomic_bridgeObjectRetain", "swift_nonatomic_bridgeObjectRelease"),
    ])
    func retainEntryPoint(retain: String, release: String) {
        let retainFunction = exported(retain, as: Retain.self), releaseFunction = exported(release, as: Release.self)
        for k in [1, 3] {
            let counts = counting { object in
                for _ in 0..<k { _ = retainFunction(object) }
                for _ in 0..<k { releaseFunction(object) }
            }
            #expect(counts == CounterReading(mallocs: 0, bytes: 0, retains: UInt64(k), releases: UInt64(k)), "\(retain) ×\(k)")
        }
    }

    @Test("the _n entry points count one call each, whatever their count", arguments: [
        ("swift_retain_n", "swift_release_n"),
        ("swift_nonatomic_retain_n", "swift_nonatomic_release_n"),
        ("swift_bridgeObjectRetain_n", "swift_bridgeObjectRelease_n"),
        ("swift_nonatomic_bridgeObjectRetain_n", "swift_nonatomic_bridgeObjectRelease_n"),
    ])
    func retainNEntryPoint(retain: String, release: String) {
        let retainFunction = exported(retain, as: RetainN.self), releaseFunction = exported(release, as: ReleaseN.self)
        let counts = counting { object in
            _ = retainFunction(object, 5)
            releaseFunction(object, 5)
        }
        #expect(counts == CounterReading(mallocs: 0, bytes: 0, retains: 1, releases: 1))
    }

    @Test("a strong retain taken through an unowned reference counts as a retain")
    func unownedRetainStrong() {
        let release = exported("swift_release", as: Release.self)
        let unownedRetain = exported("swift_unownedRetain", as: Release.self)
        for name in ["swift_unownedRetainStrong", "swift_nonatomic_unownedRetainStrong"] {
            let retainStrong = exported(name, as: Release.self)
            let counts = counting { object in
                retainStrong(object)
                release(object)
            }
            #expect(counts == CounterReading(mallocs: 0, bytes: 0, retains: 1, releases: 1), "\(name)")
        }
        let retainStrongAndRelease = exported("swift_unownedRetainStrongAndRelease", as: Release.self)
        let counts = counting { object in
            unownedRetain(object)  // the unowned count is not counted
            retainStrongAndRelease(object)  // +1 strong, -1 unowned
            release(object)
        }
        #expect(counts == CounterReading(mallocs: 0, bytes: 0, retains: 1, releases: 1))
    }

    @Test("a weak load that returns an object counts as a retain; one that returns nil counts none")
    func weakLoadCountsItsRetain() {
        final class Holder {
            weak var object: Box?
        }
        let holder = Holder()
        let box = Box()
        holder.object = box
        // Through the compiled weak load (`swift_weakLoadStrong`), as an app's weak box reads it: +1, then its release.
        let live = Counters.count { withExtendedLifetime(holder.object) { _ in } }
        #expect(live == CounterReading(mallocs: 0, bytes: 0, retains: 1, releases: 1))
        holder.object = nil
        let empty = Counters.count { withExtendedLifetime(holder.object) { _ in } }
        #expect(empty.retains == 0)  // (its release of `nil` is a call, counted as one)
        withExtendedLifetime(box) {}
    }

    @Test("swift_tryRetain on an object being deinitialized counts nothing: it retains nothing")
    func failedTryRetainCountsNothing() {
        _ = TriesToRetainItselfInDeinit()
        #expect(TriesToRetainItselfInDeinit.retained == false, "refused: the deinit has begun")
        #expect(TriesToRetainItselfInDeinit.reading == CounterReading(mallocs: 0, bytes: 0, retains: 0, releases: 0))
    }

    // MARK: Counting itself

    @Test("an empty case counts zero everywhere")
    func emptyCaseCountsNothing() {
        let counts = countsPerOperation {}
        #expect(counts == CountsPerOperation(mallocs: 0, bytes: 0, retains: 0, releases: 0))
    }

    @Test("heap in use grows by what is kept alive")
    func heapGrowth() async throws {
        // Heap in use is process-wide, and other tests allocate and free meanwhile (reading the committed run frees a
        // megabyte at once), so it is measured in a process of its own, which prints the growth.
        let result = try #require(await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var kept: [UnsafeMutableRawPointer] = []
            kept.reserveCapacity(1000)
            let before = Counters.heapInUse
            for _ in 0..<1000 { kept.append(UnsafeMutableRawPointer.allocate(byteCount: 10_000, alignment: 8)) }
            let after = Counters.heapInUse
            for pointer in kept { pointer.deallocate() }
            print(after - before)
        })
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        let growth = try #require(UInt64(output.filter(\.isNumber)), "the child printed '\(output)'")
        #expect(growth >= 9_500_000, "10 MB kept")
        #expect(growth < 10_500_000, "chunk headers add at most a few bytes each")
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
        #expect(first?.bytes == 48)
    }
}
