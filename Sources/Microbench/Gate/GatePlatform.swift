import Foundation

/// The platform a gate baseline belongs to: instruction counts differ between
/// operating systems, instruction sets and compiler releases, so each has its
/// own baseline file, `Results/baselines/<os>-<arch>-<swift version>.csv`.
public struct GatePlatform: Equatable, Sendable, CustomStringConvertible {
    /// `linux`, `macos`, `windows` or `unknown`.
    public var os: String
    /// `x86_64` or `arm64` (what `uname -m` calls `aarch64`).
    public var arch: String
    /// The compiler's version, `6.3.1`, from `swift --version`.
    public var swiftVersion: String

    public init(os: String, arch: String, swiftVersion: String) {
        self.os = os
        self.arch = arch
        self.swiftVersion = swiftVersion
    }

    /// `linux-x86_64-6.3.1`.
    public var name: String { "\(os)-\(arch)-\(swiftVersion)" }

    public var description: String { name }

    /// Where this platform's baseline is kept, relative to the package root.
    public var baselinePath: String { "Results/baselines/\(name).csv" }

    /// The platform this process was built for, with the version of the
    /// `swift` on `PATH` (the toolchain that builds the bench).
    public static func current() -> GatePlatform {
        #if os(Linux)
            let os = "linux"
        #elseif os(macOS)
            let os = "macos"
        #elseif os(Windows)
            let os = "windows"
        #else
            let os = "unknown"
        #endif
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "unknown"
        #endif
        let output = Subprocess.run("/usr/bin/env", ["swift", "--version"])
        let version = output.status == 0 ? swiftVersion(in: output.standardOutput + output.standardError) : nil
        return GatePlatform(os: os, arch: arch, swiftVersion: version ?? "unknown")
    }

    /// The version in `swift --version`'s output (`Swift version 6.3.1 (…)`,
    /// or Apple's `Apple Swift version 6.2 (…)`), or `nil`.
    public static func swiftVersion(in text: String) -> String? {
        guard let match = text.firstMatch(of: /Swift version ([0-9]+(?:\.[0-9]+)*)/) else { return nil }
        return String(match.1)
    }
}
