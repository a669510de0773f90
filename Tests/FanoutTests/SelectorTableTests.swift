@testable import Fanout
import Testing

@Suite("SelectorTable: a selector named at run time found in one probe")
struct SelectorTableTests {
    @Test("every name finds its ordinal, in tables of 1 to 64 names", arguments: [1, 2, 3, 4, 7, 16, 63, 64])
    func findsEveryName(count: Int) {
        let names = (0..<count).map { "message\($0):with:" }
        let table = SelectorTable(names)
        for (ordinal, name) in names.enumerated() {
            #expect(table.ordinal(of: name) == ordinal)
            // The same name built at run time, in other storage.
            #expect(table.ordinal(of: String(name.utf8.map { Character(UnicodeScalar($0)) })) == ordinal)
        }
    }

    @Test("names that are not in the table are not found, however close")
    func missesStrangers() {
        let table = SelectorTable(["scrollViewDidScroll:", "scrollViewDidZoom:"])
        for stranger in ["", "scrollViewDidScroll", "scrollViewDidScroll::", "ScrollViewDidScroll:", "scrollViewDidZoom:x",
                         "é", String(repeating: "a", count: 1000)] {
            #expect(table.ordinal(of: stranger) == nil, "\(stranger)")
        }
    }

    @Test("names of every length up to 40 bytes, differing in one byte anywhere, are told apart")
    func tellsApartOneByte() {
        // The hash reads words, an overlapping last word and, below eight
        // bytes, single bytes: a difference in any of them must count.
        for length in 1...40 {
            let base = String(repeating: "a", count: length)
            let names = [base] + (0..<length).map { position in
                String(base.enumerated().map { $0.offset == position ? "b" : $0.element })
            }
            let table = SelectorTable(names)
            for (ordinal, name) in names.enumerated() {
                #expect(table.ordinal(of: name) == ordinal, "\(name)")
                #expect(SelectorTable.hash(name) == SelectorTable.hash(String(name.utf8.map { Character(UnicodeScalar($0)) })))
            }
            #expect(table.ordinal(of: String(repeating: "c", count: length)) == nil)
        }
    }

    @Test("names that differ only in a few bytes spread over the buckets: about one probe per lookup",
          arguments: [
            (0..<64).map { "wideSchemaMessage\($0 < 10 ? "0" : "")\($0):" },
            (0..<64).map { "message\($0):with:" },
            (0..<64).map { "tableView:\($0):forRowAtIndexPath:" },
            (0..<64).map { "a\($0)" },
          ])
    func spreads(names: [String]) {
        // A hash whose last mix left the low bits blind to the last word put
        // all 64 "wideSchemaMessageNN:" in one run of buckets (about 32
        // probes a lookup, measured).
        let table = SelectorTable(names)
        let probes = names.map { table.probes(for: $0) }
        #expect(Double(probes.reduce(0, +)) / Double(names.count) <= 2, "\(probes)")
        #expect(probes.max()! <= 8, "\(probes)")
    }
}
