// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fanout",
    // The oldest releases whose Swift runtime has what the library needs: parameterized protocol types at run time
    // (`any MessageProtocol<Schema>`, `any Multiplexing<Schema>`: macOS 13, iOS 16). Nothing in the library needs
    // Synchronization or the Swift 6 runtime; the worked example's `StaticMultiplexer`, a generic type over a
    // parameter pack, is available from macOS 14 and iOS 17. Declared, not compiled: Documentation/Platforms.md.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Fanout", targets: ["Fanout"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    targets: [
        // MARK: - The library
        .target(name: "Fanout", dependencies: ["FanoutSupport"]),
        .target(name: "FanoutSupport"),

        // MARK: - The worked example: a model of UIKit's scroll view, reusing Fanout from another module
        .target(name: "ScrollViewKit", dependencies: ["Fanout"]),

        // MARK: - The lab: the harness and the suite
        .target(name: "MicrobenchCounters"),
        .target(name: "Microbench", dependencies: ["MicrobenchCounters"]),
        .executableTarget(
            name: "bench", dependencies: ["Fanout", "ScrollViewKit", "GuideGlue", "Microbench", "BenchFloor"],
            path: "Benchmarks/bench"),
        // A contender whose glue is written exactly as Documentation/ReusingForYourProtocol.md shows it.
        .target(name: "GuideGlue", dependencies: ["Fanout", "ScrollViewKit"], path: "Benchmarks/GuideGlue"),
        // The floor of dynamic dispatch: a C loop over (context, function pointer) pairs.
        .target(name: "BenchFloor", path: "Benchmarks/BenchFloor"),

        // MARK: - Tests
        .testTarget(name: "FanoutTests", dependencies: ["Fanout", "ScrollViewKit"]),
        // The fuzz targets' harnesses (scripts/fuzz builds them with libFuzzer) and the replay of their corpora.
        .testTarget(name: "FuzzTests", dependencies: ["Fanout", "ScrollViewKit", "Microbench"], exclude: ["Corpus"]),
        // Optimized even in debug builds, so that a test that makes k runtime calls makes exactly k.
        .testTarget(name: "MicrobenchTests", dependencies: ["Microbench"], swiftSettings: [.unsafeFlags(["-O"])]),
    ],
    swiftLanguageModes: [.v6]
)
