import Foundation
import Testing

/// The fuzz targets, by the name `scripts/fuzz` gives them.
enum FuzzTargetName: String, CaseIterable, Sendable {
    case forward, parsers, model

    func run(_ data: [UInt8]) -> FuzzFindings {
        switch self {
        case .forward: ForwardFuzzTarget.run(data)
        case .parsers: ParserFuzzTarget.run(data)
        case .model: ModelFuzzTarget.run(data)
        }
    }
}

/// Replays the saved corpus of every fuzz target (`Tests/FuzzTests/Corpus/<target>/`,
/// written by `scripts/fuzz --save`): the inputs libFuzzer kept because they
/// reached new code, each checked again by the same harness.
@Suite("Fuzz corpora, replayed")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    @Test("every saved input passes its fuzz target's checks", arguments: FuzzTargetName.allCases)
    func replay(target: FuzzTargetName) throws {
        let directory = Self.corpus.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count >= 10, "the \(target) corpus has \(names.count) inputs: run scripts/fuzz --save \(target)")
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let findings = target.run([UInt8](data))
            #expect(findings.isEmpty, "\(target)/\(name): \(findings.messages.joined(separator: "; "))")
        }
    }

    @Test("the fuzz targets check something: broken behaviour is reported")
    func findingsAreReported() {
        var findings = FuzzFindings()
        findings.check(true, "fine")
        #expect(findings.isEmpty)
        findings.check(false, "broken")
        #expect(findings.messages == ["broken"])
    }
}
