import Dispatch
import Foundation

/// What a finished child process reported.
public struct SubprocessResult: Sendable {
    /// The exit status; the signal's number when a signal ended it (``signal``); -1 when the process could not be
    /// started.
    public var status: Int32
    public var standardOutput: String
    /// The standard error, or why the process could not be started.
    public var standardError: String
    /// The signal that ended the process, if one did: its own fault (`SIGSEGV`), or the kill at its deadline.
    public var signal: Int32? = nil
    /// Whether the process was killed because it ran past its deadline.
    public var timedOut = false
    /// How long the process ran, in seconds.
    public var seconds: Double = 0

    /// How the process ended, in words: "exited with status 1", "was killed by SIGSEGV", "ran past its deadline".
    public var ending: String {
        if timedOut { return "ran past its deadline and was killed" }
        if let signal { return "was killed by \(Subprocess.signalName(signal))" }
        return "exited with status \(status)"
    }
}

/// Running a child process and collecting its output: the one helper behind
/// the run metadata, the Objective-C peer, the gate's valgrind pass, a run's
/// fresh processes and the tests that run `bench`.
public enum Subprocess {
    /// Runs `executable` with `arguments` and waits for it, for at most `deadline` seconds when one is given: then
    /// the child is sent `SIGTERM`, and `SIGKILL` a second later, and the result says it timed out.
    ///
    /// Standard output and standard error are read on threads of their own, so a child that fills one pipe while
    /// the other is being read cannot stall, and a child that hangs cannot stop the caller past its deadline. The
    /// child starts in `currentDirectory`, or in this process's. While it runs, ``terminateRunning()`` stops it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, deadline: Double? = nil
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
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = MonotonicClock.now()
        do { try process.run() } catch {
            return SubprocessResult(status: -1, standardOutput: "", standardError: "\(executable): \(error)")
        }
        let pid = process.processIdentifier
        running.withLock { running in
            // Started as the run was stopping: it must not outlive the run either.
            if running.stopping { kill(pid, SIGKILL) } else { running.pids.insert(pid) }
        }
        defer { running.withLock { _ = $0.pids.remove(pid) } }
        let (outputData, errorData) = (DataBox(), DataBox())
        let readers = DispatchGroup()
        for (pipe, box) in [(output, outputData), (error, errorData)] {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async(group: readers) { box.data = handle.readDataToEndOfFile() }
        }
        var timedOut = false
        if let deadline, exited.wait(timeout: .now() + deadline) == .timedOut {
            timedOut = true
            kill(pid, SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(pid, SIGKILL)
                exited.wait()
            }
        } else if deadline == nil {
            exited.wait()
        }
        readers.wait()
        process.waitUntilExit()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return SubprocessResult(
            status: process.terminationStatus, standardOutput: String(decoding: outputData.data, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self), signal: signal, timedOut: timedOut,
            seconds: Double(MonotonicClock.now() - start) / 1e9)
    }

    /// The children started by ``run(_:_:environment:currentDirectory:deadline:)`` that have not ended yet, and
    /// whether ``terminateRunning()`` was called.
    private static let running = Locked((pids: Set<pid_t>(), stopping: false))

    /// Kills every child that ``run(_:_:environment:currentDirectory:deadline:)`` started and that is still running,
    /// and any it starts from now on: what a run does before it exits on a signal, so that no child outlives it.
    public static func terminateRunning() {
        running.withLock { running in
            running.stopping = true
            for pid in running.pids { kill(pid, SIGKILL) }
        }
    }

    /// Whether ``terminateRunning()`` was called: a child that ends now was stopped, not failed.
    public static var isStopping: Bool { running.withLock { $0.stopping } }

    /// A signal's name: `SIGSEGV` for 11; the number when it has no name here.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// The path of this process's executable, for running it again.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// A fingerprint of this process's executable (FNV-1a over its bytes, in hexadecimal): two runs with the same
    /// one ran the same code.
    public static func executableFingerprint() -> String {
        guard let data = FileManager.default.contents(atPath: currentExecutable) else { return "unknown" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        }
        return String(hash, radix: 16)
    }

    /// The path of `command` on `PATH`, or `nil` when it is not installed.
    public static func find(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A value behind a lock, read and written from any thread.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// What a reading thread read, filled before the reading group's `wait()` returns.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
