// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fanout",
    products: [
        // MARK: - Public products
        .library(name: "Fanout", targets: ["Fanout"]),
        .library(name: "Microbench", targets: ["Microbench"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    targets: [
        // MARK: - Library
        .target(name: "Fanout", dependencies: ["FanoutSupport"]),
        .target(name: "FanoutSupport"),

        // MARK: - Benchmark harness and suite
        .target(name: "MicrobenchCounters"),
        .target(name: "Microbench", dependencies: ["MicrobenchCounters"]),
        .executableTarget(name: "bench", dependencies: ["Fanout", "Microbench"], path: "Benchmarks/bench"),

        // MARK: - Tests
        .testTarget(name: "FanoutTests", dependencies: ["Fanout"]),
        // The fuzz targets' harnesses (scripts/fuzz builds them with libFuzzer) and the replay of their corpora.
        .testTarget(name: "FuzzTests", dependencies: ["Fanout", "Microbench"], exclude: ["Corpus"]),
        // Optimized even in debug builds, so that a test that makes k runtime calls makes exactly k.
        .testTarget(name: "MicrobenchTests", dependencies: ["Microbench"], swiftSettings: [.unsafeFlags(["-O"])]),
    ],
    swiftLanguageModes: [.v6]
)
