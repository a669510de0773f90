import Foundation

extension RunMetadata {
    /// Facts about this process's machine, toolchain and checkout.
    ///
    /// The commit is `git rev-parse --short HEAD`, suffixed `-dirty` when
    /// tracked files differ from it; `unknown` outside a checkout.
    public static func current() -> RunMetadata {
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        var commit = firstLine(of: run("git", ["rev-parse", "--short=12", "HEAD"])) ?? "unknown"
        if commit != "unknown", let status = run("git", ["status", "--porcelain", "--untracked-files=no"]),
            !status.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            commit += "-dirty"
        }
        return RunMetadata(
            swiftVersion: firstLine(of: run("swift", ["--version"])) ?? "unknown",
            commit: commit,
            host: ProcessInfo.processInfo.hostName,
            cpu: cpuModel(),
            timestamp: ISO8601DateFormatter().string(from: Date()),
            build: build)
    }

    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        let model = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        let cores = text.split(separator: "\n").filter { $0.hasPrefix("processor") }.count
        let name =
            model.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return "\(name) (\(cores) cores)"
    }

    static func firstLine(of text: String?) -> String? {
        guard let line = text?.split(separator: "\n").first else { return nil }
        return String(line).trimmingCharacters(in: .whitespaces)
    }

    /// The standard output of a command found on `PATH`, or `nil` if it failed.
    static func run(_ command: String, _ arguments: [String]) -> String? {
        let result = Subprocess.run("/usr/bin/env", [command] + arguments)
        return result.status == 0 ? result.standardOutput : nil
    }
}
