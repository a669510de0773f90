// swift-tools-version:6.0
import PackageDescription

// The lab's code is built with every function at a 64-byte boundary, so that two functions whose code is the same
// run alike whatever else the build holds; with the default 16 a loop may straddle a cache line in one of them and
// not the other (Benchmarks/Notebook.md, section 65). Only the lab's: the library is built as a client builds it.
let labSwift: [SwiftSetting] = [.unsafeFlags(["-Xllvm", "-align-all-functions=6"])]
let labC: [CSetting] = [.unsafeFlags(["-falign-functions=64"])]

let package = Package(
    name: "Fanout",
    // The oldest releases whose Swift runtime has what the library needs: parameterized protocol types at run time
    // (`any MessageProtocol<Schema>`, `any Multiplexing<Schema>`: macOS 13, iOS 16). Nothing in the library needs
    // Synchronization or the Swift 6 runtime; the worked example's `StaticMultiplexer`, a generic type over a
    // parameter pack, is available from macOS 14 and iOS 17. Declared, not compiled: Documentation/Platforms.md.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Fanout", targets: ["Fanout"]),
        // Behaviours fixed where a screen is built (`StaticComposition`): a module of its own, so that a client of the
        // run-time strategies neither links nor builds it.
        .library(name: "FanoutStatic", targets: ["FanoutStatic"]),
        // The suite, as `swift run -c release bench`. Every target but the library's is prefixed `Fanout`: SwiftPM
        // wants a target name unique across a client's whole graph, used or not, and the lab's must not collide.
        .executable(name: "bench", targets: ["FanoutBench"]),
    ],
    targets: [
        // MARK: - The library
        .target(name: "Fanout", dependencies: ["FanoutSupport"]),
        .target(name: "FanoutSupport"),
        .target(name: "FanoutStatic", dependencies: ["Fanout"]),

        // MARK: - The worked example: a model of UIKit's scroll view, reusing Fanout from another module
        .target(name: "FanoutScrollViewKit", dependencies: ["Fanout", "FanoutStatic"], path: "Sources/ScrollViewKit",
            swiftSettings: labSwift),

        // MARK: - The lab: the harness and the suite
        .target(name: "FanoutMicrobenchCounters", path: "Sources/MicrobenchCounters"),
        .target(name: "FanoutMicrobench", dependencies: ["FanoutMicrobenchCounters"], path: "Sources/Microbench"),
        .executableTarget(
            name: "FanoutBench",
            dependencies: [
                "Fanout", "FanoutStatic", "FanoutScrollViewKit", "FanoutGuideGlue", "FanoutMicrobench", "FanoutBenchFloor",
            ],
            path: "Benchmarks/bench", swiftSettings: labSwift),
        // A contender whose glue is written exactly as Documentation/ReusingForYourProtocol.md shows it.
        .target(name: "FanoutGuideGlue", dependencies: ["Fanout", "FanoutScrollViewKit"], path: "Benchmarks/GuideGlue",
            swiftSettings: labSwift),
        // The floor of dynamic dispatch: a C loop over (context, function pointer) pairs.
        .target(name: "FanoutBenchFloor", path: "Benchmarks/BenchFloor", cSettings: labC),
        // A second, independent harness for the headline cells, with its own C loop (scripts/second-harness).
        .executableTarget(
            name: "FanoutSecondHarness", dependencies: ["Fanout", "FanoutSecondHarnessFloor"],
            path: "Benchmarks/SecondHarness", swiftSettings: labSwift),
        .target(name: "FanoutSecondHarnessFloor", path: "Benchmarks/SecondHarnessFloor", cSettings: labC),

        // MARK: - Tests
        .testTarget(name: "FanoutTests", dependencies: ["Fanout", "FanoutStatic", "FanoutScrollViewKit"]),
        // The fuzz targets' harnesses (scripts/fuzz builds them with libFuzzer) and the replay of their corpora.
        .testTarget(
            name: "FanoutFuzzTests", dependencies: ["Fanout", "FanoutScrollViewKit", "FanoutMicrobench"],
            path: "Tests/FuzzTests", exclude: ["Corpus"]),
        // Optimized even in debug builds, so that a test that makes k runtime calls makes exactly k.
        .testTarget(
            name: "FanoutMicrobenchTests", dependencies: ["FanoutMicrobench"], path: "Tests/MicrobenchTests",
            swiftSettings: [.unsafeFlags(["-O"])]),
    ],
    swiftLanguageModes: [.v6]
)
