// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fanout",
    products: [
        // MARK: - Public products
        .library(name: "Fanout", targets: ["Fanout"]),
    ],
    targets: [
        // MARK: - Library
        .target(name: "Fanout"),

        // MARK: - Tests
        .testTarget(name: "FanoutTests", dependencies: ["Fanout"]),
    ],
    swiftLanguageModes: [.v6]
)
