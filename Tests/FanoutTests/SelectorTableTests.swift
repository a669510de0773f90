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
}
