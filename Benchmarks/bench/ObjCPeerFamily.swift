import Foundation
import Microbench

/// The Objective-C reference peer: `Benchmarks/objc/ForwardingProxy.m`, a
/// `forwardInvocation:` multiplexer over an `NSArray`, built with gcc and
/// GNUstep Base into `.build/objc/forwarding-proxy` and run as a separate
/// process; its rows join the CSV as `dispatch` rows with `strategy` =
/// `objcForwardInvocation`. Optional: without the toolchain, `bench` says how
/// to install it and goes on.
enum ObjCPeerFamily: BenchmarkFamily {
    static let name = "objcForwardInvocation"
    static let contenders = [name]
    static let buildScript = "Benchmarks/objc/build.sh"
    static let executable = ".build/objc/forwarding-proxy"

    static func cases(_ selection: Selection) -> [BenchmarkCase] { [] }

    static func externalCases(_ selection: Selection) -> [CaseID] {
        guard selection.includesDidScroll else { return [] }
        return selection.widths.map { DispatchFamily.id(name, .didScroll, width: $0, responders: $0) }
    }

    /// Builds and runs the proxy program for the widths of `ids`; no rows (and
    /// a note on standard error) when it cannot be built or run.
    static func measure(external ids: [CaseID], configuration: RunConfiguration, metadata: RunMetadata) -> [ResultRow] {
        guard !ids.isEmpty else { return [] }
        guard FileManager.default.isExecutableFile(atPath: buildScript) else {
            note("\(buildScript) not found (run bench from the package root); skipping \(name)")
            return []
        }
        let build = Subprocess.run("/bin/bash", [buildScript, executable])
        guard build.status == 0 else {
            note(build.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
            note("continuing without \(name)")
            return []
        }
        let arguments = [String(configuration.samples), String(configuration.sampleTimeMilliseconds)]
            + ids.map { String($0.width) }
        let result = Subprocess.run(executable, arguments)
        guard result.status == 0 else {
            note("\(executable) failed (status \(result.status)): \(result.standardError); continuing without \(name)")
            return []
        }
        return result.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 8, let width = Int(fields[0]), let samples = Int(fields[1]),
                  let iterations = Int(fields[2]), let median = Double(fields[3]), let p10 = Double(fields[4]),
                  let p90 = Double(fields[5]), let minimum = Double(fields[6]), let spread = Double(fields[7]) else {
                note("ignoring a malformed line from \(executable): \(line)")
                return nil
            }
            return ResultRow(
                benchmark: "dispatch", strategy: name, message: "didScroll", width: width, responders: width,
                samples: samples, iterations: iterations, nanosecondsPerOperationMedian: median,
                nanosecondsPerOperationP10: p10, nanosecondsPerOperationP90: p90,
                nanosecondsPerOperationMinimum: minimum, nanosecondsPerDelivery: median / Double(width),
                deliveriesPerSecond: Double(width) * 1e9 / median, counts: nil, relativeSpread: spread,
                metadata: metadata)
        }
    }

    private static func note(_ text: String) {
        FileHandle.standardError.write(Data("note: \(text)\n".utf8))
    }
}
