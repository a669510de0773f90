import Fanout
import FanoutScrollViewKit
import Foundation
import FanoutMicrobench

/// Fanout's regression gate (`bench check`, `bench baseline`): which cases it
/// counts, and the reference of its informational time column. The counting,
/// the callgrind child, the comparison and the report are Microbench's
/// ``RegressionGate``.
enum Gate {
    /// Every family's gate cases (``BenchmarkFamily/gateCases``) that `filter` selects.
    static func cases(filter: Regex<AnyRegexOutput>?) -> [BenchmarkCase] {
        BenchmarkFamilies.gateCases.filter { benchmarkCase in filter.map { benchmarkCase.name.contains($0) } ?? true }
    }

    /// The gate over the cases `options` selects; its callgrind child is this
    /// executable's `gate-instructions` with the same filter.
    static func make(_ options: BenchOptions, filter: Regex<AnyRegexOutput>?) -> RegressionGate {
        RegressionGate(
            cases: cases(filter: filter),
            childArguments: ["gate-instructions"] + (options.filter.map { ["--filter", $0] } ?? [])
        ) { benchmarkCase in
            BenchmarkFamilies.gateReference(for: benchmarkCase) ?? benchmarkCase
        }
    }

    /// `bench check`: exits with the gate's status (0 pass, 1 fail, 2 bad input, 3 stale baseline).
    /// Without `--baseline`, the current platform's baseline; when the
    /// platform has none, the counts are reported and nothing is gated.
    static func check(_ options: BenchOptions, filter: Regex<AnyRegexOutput>?) -> Never {
        let (path, platform) = baselinePath(options)
        let reportOnly = platform.flatMap { platform in
            FileManager.default.fileExists(atPath: path) ? nil
                : "no baseline for \(platform) (\(path)); commit the records (\(options.recordsPath)) as that file to gate this platform"
        }
        let baseline: [GateRecord]
        let thresholds: GateThresholds
        do {
            baseline = reportOnly == nil ? try GateRecord.parse(try readFile(path), file: path) : []
            thresholds = try GateThresholds.parse(try readFile(options.thresholdsPath), file: options.thresholdsPath)
        } catch {
            fail("\(error)", showUsage: false)
        }
        let gate = make(options, filter: filter)
        guard !gate.cases.isEmpty else { fail("no gate case matches the selection", showUsage: false) }
        if options.showsProgress { FileHandle.standardError.write(Data("gate: baseline \(path)\n".utf8)) }
        let status = gate.check(
            baseline: baseline, thresholds: thresholds, countsOnly: options.countsOnly,
            progress: options.showsProgress, showsTime: true, summaryPath: options.summaryPath,
            recordsPath: options.recordsPath, benchmarkJSONPath: options.benchmarkJSONPath, reportOnly: reportOnly)
        exit(status.rawValue)
    }

    /// `bench baseline`: measures the gate cases and writes the baseline (the
    /// current platform's without `--baseline`); with a filter, only the
    /// matching cases are re-recorded.
    static func baseline(_ options: BenchOptions, filter: Regex<AnyRegexOutput>?) -> Never {
        let path = baselinePath(options).path
        let gate = make(options, filter: filter)
        guard !gate.cases.isEmpty else { fail("no gate case matches the selection", showUsage: false) }
        var existing: [GateRecord]?
        if filter != nil, FileManager.default.fileExists(atPath: path) {
            do { existing = try GateRecord.parse(try readFile(path), file: path) } catch {
                fail("\(error)", showUsage: false)
            }
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            let count = try gate.recordBaseline(
                to: path, merging: existing, countsOnly: options.countsOnly, progress: options.showsProgress)
            print("wrote \(count) gate cases to \(path); review the diff and commit it")
        } catch {
            fail("could not write \(path): \(error)", showUsage: false)
        }
        exit(0)
    }

    /// The baseline `--baseline` names, or else this platform's (with the
    /// platform). Exits 2 when the platform cannot be named: without its Swift
    /// version, `check` would fall back to reporting only and `baseline` would
    /// write a file no platform reads.
    static func baselinePath(_ options: BenchOptions) -> (path: String, platform: GatePlatform?) {
        if let path = options.baselinePath { return (path, nil) }
        let platform = GatePlatform.current()
        guard platform.swiftVersion != "unknown" else {
            fail("cannot tell this platform's Swift version (`swift --version` failed): pass --baseline", showUsage: false)
        }
        return (platform.baselinePath, platform)
    }

    static func readFile(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CSV.ParseError(file: path, line: 0, reason: "missing (create it with `swift run -c release bench baseline`)")
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
