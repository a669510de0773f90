import Dispatch
import Foundation

/// What a finished child process reported.
public struct SubprocessResult: Sendable {
    /// The exit status; -1 when the process could not be started.
    public var status: Int32
    public var standardOutput: String
    /// The standard error, or why the process could not be started.
    public var standardError: String
}

/// Running a child process and collecting its output: the one helper behind
/// the run metadata, the Objective-C peer, the gate's valgrind pass and the
/// tests that run `bench`.
public enum Subprocess {
    /// Runs `executable` with `arguments` and waits for it.
    ///
    /// Standard output and standard error are read at the same time, so a
    /// child that fills one pipe while the other is being read cannot stall.
    /// The child starts in `currentDirectory`, or in this process's.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil
    ) -> SubprocessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do { try process.run() } catch {
            return SubprocessResult(status: -1, standardOutput: "", standardError: "\(executable): \(error)")
        }
        let errorData = DataBox()
        let errorHandle = error.fileHandleForReading
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorData.data = errorHandle.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return SubprocessResult(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self))
    }

    /// The path of this process's executable, for running it again.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The path of `command` on `PATH`, or `nil` when it is not installed.
    public static func find(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Standard error, filled by the reading thread before `group.wait()` returns.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
