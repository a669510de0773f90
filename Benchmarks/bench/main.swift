import Foundation
import Microbench

// `swift run -c release bench [run|list] [options]`: see BenchOptions.usage.

func fail(_ message: String, showUsage: Bool) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    if showUsage { FileHandle.standardError.write(Data("\n\(BenchOptions.usage)\n".utf8)) }
    exit(2)
}

let options: BenchOptions
let selection: Selection
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    selection = try Selection(options)
} catch {
    fail(error.message, showUsage: true)
}
if options.showsHelp {
    print(BenchOptions.usage)
    exit(0)
}

let cases = selection.cases()
guard !cases.isEmpty || !selection.objcWidths.isEmpty else { fail("no case matches the selection", showUsage: false) }

switch options.subcommand {
case .check:
    Gate.check(options, filter: selection.filter)
case .baseline:
    Gate.baseline(options, filter: selection.filter)
case .gateInstructions:
    InstructionPass().run(Gate.cases(filter: selection.filter))
case .list:
    for name in selection.names() { print(name) }
case .run:
    var configuration = RunConfiguration()
    if options.quick {
        configuration.samples = 6
        configuration.rounds = 2
        configuration.sampleTimeMilliseconds = 0.5
        configuration.warmUpMilliseconds = 2
    }
    if let samples = options.samples { configuration.samples = samples }
    if let rounds = options.rounds { configuration.rounds = rounds }
    if let sampleTime = options.sampleTimeMilliseconds { configuration.sampleTimeMilliseconds = sampleTime }
    let outputPath = options.output ?? (options.isPartial ? "Results/partial.csv" : "Results/results.csv")
    if !Counters.areAvailable {
        FileHandle.standardError.write(Data("warning: built without counting hooks; counter columns are empty\n".utf8))
    }
    var rows = ProgressReporter(enabled: options.showsProgress).run(cases, runner: Runner(configuration: configuration))
    rows += ObjCPeer.rows(
        widths: selection.objcWidths, configuration: configuration, metadata: rows.first?.metadata ?? .current())
    do {
        try AtomicFile.write(CSV.render(rows), to: outputPath)
    } catch {
        fail("could not write \(outputPath): \(error.localizedDescription)", showUsage: false)
    }
    switch options.format {
    case .table: print(Report.table(rows), terminator: "")
    case .csv: print(CSV.render(rows), terminator: "")
    case .json: print(Report.json(rows), terminator: "")
    }
    FileHandle.standardError.write(Data("wrote \(rows.count) rows to \(outputPath)\n".utf8))
}
