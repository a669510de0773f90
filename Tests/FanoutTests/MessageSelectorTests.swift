@testable import Fanout
import FanoutScrollViewKit
import Testing

@Suite("MessageSelector: a selector hashed once")
struct MessageSelectorTests {
    /// The same characters, in storage of their own rather than a literal's.
    func copied(_ name: String) -> String {
        String(decoding: Array(name.utf8), as: UTF8.self)
    }

    @Test("Equal names make equal selectors with equal hashes, whatever their storage")
    func equalNames() {
        let literal = MessageSelector("scrollViewDidScroll:")
        let built = MessageSelector(copied("scrollViewDidScroll:"))
        #expect(literal == built)
        #expect(literal.hashValue == built.hashValue)
        for seed in [0, 1, -1, 0x5DEECE66D, Int.max] {
            #expect(literal._rawHashValue(seed: seed) == built._rawHashValue(seed: seed))
        }
    }

    @Test("Different names make different selectors")
    func differentNames() {
        let names = ScrollViewMessage.allCases.map(\.rawValue) + ["", "scrollViewDidScroll", "scrollViewDidScroll:x"]
        let selectors = names.map(MessageSelector.init)
        for (i, a) in selectors.enumerated() {
            for (j, b) in selectors.enumerated() {
                #expect((a == b) == (i == j), "\(a.name) vs \(b.name)")
            }
        }
    }

    @Test("A dictionary keyed by selectors finds every key, including keys built at run time")
    func dictionaryLookups() {
        let names = (0..<2_000).map { "selector\($0):with:" }
        var table: [MessageSelector: Int] = [:]
        for (index, name) in names.enumerated() { table[MessageSelector(name)] = index }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() {
            #expect(table[MessageSelector(copied(name))] == index)
        }
        #expect(table[MessageSelector("selector2000:with:")] == nil)
    }

    @Test("Selectors also hash correctly inside a larger value")
    func hashedAsPart() {
        struct Pair: Hashable { let selector: MessageSelector; let tag: Int }
        let set: Set = [Pair(selector: .init("a:"), tag: 1), Pair(selector: .init("b:"), tag: 1)]
        #expect(set.contains(Pair(selector: .init(copied("a:")), tag: 1)))
        #expect(!set.contains(Pair(selector: .init("a:"), tag: 2)))
    }
}
