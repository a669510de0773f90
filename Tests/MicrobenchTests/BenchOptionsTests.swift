import Foundation
import FanoutMicrobench
import Testing

@Suite("Command line")
struct BenchOptionsTests {
    @Test("valid command lines parse")
    func validOptions() throws {
        #expect(try BenchOptions.parse([]) == BenchOptions())
        let options = try BenchOptions.parse([
            "run", "--filter", "dispatch/.*/64/", "--strategies=closureTable,floor", "--widths", "1,16,256",
            "--messages", "didScroll", "--quick", "--samples", "9", "--sample-time", "0.5", "--output", "out.csv",
            "--format", "json", "--no-progress",
        ])
        #expect(options.filter == "dispatch/.*/64/")
        #expect(options.strategies == ["closureTable", "floor"])
        #expect(options.widths == [1, 16, 256])
        #expect(options.messages == ["didScroll"])
        #expect(options.quick && !options.showsProgress && options.isPartial)
        #expect(options.samples == 9)
        #expect(options.sampleTimeMilliseconds == 0.5)
        #expect(options.output == "out.csv")
        #expect(options.format == .json)
        #expect(try BenchOptions.parse(["list"]).subcommand == .list)
        let summary = try BenchOptions.parse(["summary", "runs/a.csv"])
        #expect(summary.subcommand == .summary && summary.input == "runs/a.csv")
        let guide = try BenchOptions.parse(["guide"])
        #expect(guide.subcommand == .guide && guide.input == nil)
        #expect(try BenchOptions.parse(["--help"]).showsHelp)
        #expect(try BenchOptions.parse(["--processes", "3"]).processes == 3)
        let child = try BenchOptions.parse(["repeat", "--quick", "--seed", "2"])
        #expect(child.subcommand == .repeatProcess && child.seed == 2 && child.quick)
        #expect(!(try BenchOptions.parse([])).isPartial)
    }

    @Test("every bad flag is a usage error", arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["-x"], "unknown option '-x'"),
        (["frobnicate"], "unknown subcommand 'frobnicate'"),
        (["run", "extra"], "unexpected argument 'extra'"),
        (["list", "a.csv"], "unexpected argument 'a.csv'"),
        (["guide", "a.csv", "b.csv"], "unexpected argument 'b.csv'"),
        (["summary", "a.csv", "--quick"], "'bench summary' takes a results CSV and no other option"),
        (["guide", "--filter", "x"], "'bench guide' takes a results CSV and no other option"),
        (["--filter"], "missing value for '--filter'"),
        (["--filter", "(unclosed"], "'--filter' needs a valid regular expression"),
        (["--strategies", ""], "'--strategies' takes a comma-separated list"),
        (["--strategies", "a,,b"], "'--strategies' takes a comma-separated list"),
        (["--widths", "1,zero"], "'--widths' takes positive integers, got 'zero'"),
        (["--widths", "0"], "'--widths' takes positive integers, got '0'"),
        (["--messages"], "missing value for '--messages'"),
        (["--samples", "0"], "'--samples' takes a positive integer, got '0'"),
        (["--samples", "many"], "'--samples' takes a positive integer"),
        (["--sample-time", "-1"], "'--sample-time' takes a positive number of milliseconds"),
        (["--sample-time", "inf"], "'--sample-time' takes a positive number of milliseconds"),
        (["--output", ""], "'--output' needs a path"),
        (["--output", "--quick"], "missing value for '--output'"),
        (["--format", "xml"], "'--format' takes summary, table, csv or json, got 'xml'"),
        (["--quick=yes"], "'--quick' takes no value"),
        (["--processes", "0"], "'--processes' takes an integer from 1 to 1000, got '0'"),
        (["--process-deadline", "0"], "'--process-deadline' takes a positive number of seconds, got '0'"),
        (["--resume", "x.json", "--quick"], "'--resume' takes a run's checkpoint and no other option but --no-progress"),
        (["--seed", "-1"], "'--seed' takes a non-negative integer, got '-1'"),
        (["--seed", "2"], "'--seed' is for the processes a run starts, not for 'bench run'"),
        (["--no-progress=1"], "'--no-progress' takes no value"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let error = #expect(throws: BenchOptions.UsageError.self) { try BenchOptions.parse(arguments) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("the bench executable prints the usage and exits non-zero on bad input", arguments: [
        ["--bogus"], ["--widths", "x"], ["--strategies", "nope"], ["--messages", "didZoom"], ["--filter", "^nothing$"],
    ])
    func executableRejectsBadInput(arguments: [String]) throws {
        let result = try runBench(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains("error: "))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("bench --help prints the usage and succeeds")
    func executableHelp() throws {
        let result = try runBench(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: bench"))
    }

    @Test("bench list names the core matrix")
    func executableList() throws {
        let result = try runBench(["list", "--widths", "64", "--messages", "didScroll"])
        #expect(result.status == 0)
        let names = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(names.contains("dispatch/existentialArray/didScroll/64/64"))
        #expect(names.contains("dispatch/selectorDictionary/didScroll/64/4"))
        #expect(names.contains("dispatch/floor/didScroll/64/4"))
    }
}

@Suite("Printing a results CSV: bench summary and bench guide")
struct PrintingACSVTests {
    static let committed = packageRoot + "/Results/results.csv"

    @Test("bench guide prints the table of the README and of the documentation's landing page from the committed run",
          arguments: ["README.md", "Sources/Fanout/Fanout.docc/Fanout.md"])
    func guideIsTheREADMEs(page: String) throws {
        let result = try runBench(["guide", "Results/results.csv"], in: packageRoot)
        #expect(result.status == 0, "\(result.standardError)")
        let printed = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let readme = try String(contentsOfFile: packageRoot + "/" + page, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(readme.firstIndex { $0.hasPrefix("| need | multiplexer |") })
        let block = Array(readme[start..<min(start + printed.count - 1, readme.count)])
        #expect(block == Array(printed.dropLast()), "\(page)'s table is not what `bench guide` prints: reprint it")
        #expect(printed.contains { $0.hasPrefix("| need | multiplexer | ns per delivery | × a C loop | caveat |") })
    }

    @Test("the results page is what bench page prints from the committed run and its client cost")
    func resultsPageIsBenchPage() throws {
        let result = try runBench(["page", "Results/results.csv"], in: packageRoot)
        #expect(result.status == 0, "\(result.standardError)")
        let page = try String(contentsOfFile: packageRoot + "/Results/README.md", encoding: .utf8)
        #expect(page == result.standardOutput, "Results/README.md is not what `bench page` prints: reprint it")
        for figure in ["| `existentialArray` |", "## What a client pays", "| hand-written |", "cFunctionPointer"] {
            #expect(page.contains(figure), "the results page lacks \(figure)")
        }
    }

    @Test("a client cost that cannot be read is refused with its file and line")
    func malformedClientCost() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Self.committed, toPath: folder.appendingPathComponent("results.csv").path)
        let cost = folder.appendingPathComponent("client-cost.csv").path
        try "client,messages,build_seconds,stripped_bytes,bytes_per_message_added,repeats,cpu,commit,date\nhand-written,8\n"
            .write(toFile: cost, atomically: true, encoding: .utf8)
        let result = try runBench(["page", folder.appendingPathComponent("results.csv").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(cost):2: 2 cells, the header has 9"), "\(result.standardError)")
    }

    @Test("bench summary prints one screen, at the widths screens have and the headline width")
    func summaryOfTheCommittedRun() throws {
        let result = try runBench(["summary", Self.committed])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 61)
        #expect(result.standardOutput.contains("at widths 1 / 4 / 64:"))
    }

    @Test("a malformed file is refused with its name and line; a file without the rows the guide needs says which")
    func badFiles() throws {
        let malformed = FileManagerTemporaryFile.write("benchmark,strategy\ndispatch,x\n")
        defer { FileManagerTemporaryFile.remove(malformed) }
        let refused = try runBench(["summary", malformed])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("\(malformed):1:"))
        let text = try String(contentsOfFile: Self.committed, encoding: .utf8).split(separator: "\n")
        let partial = FileManagerTemporaryFile.write(
            ([text[0]] + text.dropFirst().filter { $0.hasPrefix("dispatch,cFunctionPointer,didScroll,64,64,") })
                .joined(separator: "\n") + "\n")
        defer { FileManagerTemporaryFile.remove(partial) }
        let missing = try runBench(["guide", partial])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("\(partial): no dispatch/existentialArray/didScroll/64/64 row"),
                "\(missing.standardError)")
    }
}

/// Runs the `bench` executable that `swift build` put beside this test bundle,
/// with `environment` added to this process's.
func runBench(_ arguments: [String], environment: [String: String] = [:], in workingDirectory: String? = nil) throws -> SubprocessResult {
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    return Subprocess.run(try benchExecutable(), arguments, environment: merged, currentDirectory: workingDirectory)
}

/// A folder of its own for one test's run, and the paths in it.
struct RunFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-run-\(UUID().uuidString)").path
    var output: String { path + "/results.csv" }
    var checkpoint: String { path + "/results.partial.json" }

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The checkpoint as the run left it.
    func readCheckpoint(sourceLocation: SourceLocation = #_sourceLocation) throws -> RunCheckpoint {
        try RunCheckpoint.read(checkpoint)
    }
}

/// The path of the `bench` executable that `swift build` put beside this test bundle.
func benchExecutable() throws -> String {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable = directory.appendingPathComponent("bench")
    while !FileManager.default.isExecutableFile(atPath: executable.path), directory.path != "/" {
        // The xctest bundle may be one level deeper than the products.
        executable = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bench")
        if executable.path == "/bench" { break }
    }
    return executable.path
}

/// Writes a temporary file and returns its path; the caller removes it.
enum FileManagerTemporaryFile {
    static func write(_ text: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
