import Fanout
import FanoutScrollViewKit
import Testing

/// A protocol with no schema: a 3-argument message, a question every target answers, and an optional answer.
protocol TableObserver: AnyObject {
    func tableView(_ table: String, willDisplay cell: Int, forRowAt row: Int)
    func shouldHighlight(row: Int) -> Bool
    func height(forRow row: Int) -> Double?
}

/// Records what it receives in a shared list; answers as told; can run a hook inside `tableView(_:willDisplay:…)`.
final class TableProbe: TableObserver {
    let id: Int
    let record: Record
    var highlights = true
    var height: Double?
    var onWillDisplay: ((TableProbe) -> Void)?
    private var callDepth = 0

    final class Record {
        var calls: [String] = []
        var freedInsideOwnCallback: [Int] = []
    }

    init(_ id: Int, _ record: Record) {
        self.id = id
        self.record = record
    }

    deinit { if callDepth > 0 { record.freedInsideOwnCallback.append(id) } }

    func tableView(_ table: String, willDisplay cell: Int, forRowAt row: Int) {
        callDepth += 1
        defer { callDepth -= 1 }
        record.calls.append("\(id):\(table),\(cell),\(row)")
        onWillDisplay?(self)
    }

    func shouldHighlight(row: Int) -> Bool {
        record.calls.append("\(id):highlight")
        return highlights
    }

    func height(forRow row: Int) -> Double? {
        record.calls.append("\(id):height")
        return height
    }
}

/// The delegate an app writes once for every strategy: generic over `TargetMultiplexing`.
final class GenericTableObservers<Observers: TargetMultiplexing<any TableObserver>>: TableObserver {
    let observers = Observers()

    func tableView(_ table: String, willDisplay cell: Int, forRowAt row: Int) {
        observers.forEach { $0.tableView(table, willDisplay: cell, forRowAt: row) }
    }
    func shouldHighlight(row: Int) -> Bool { observers.askAll { $0.shouldHighlight(row: row) } }
    func height(forRow row: Int) -> Double? { observers.askUntilAnswered { $0.height(forRow: row) } }
}

/// The schema-free form (`Targets<any P>`) of every strategy whose targets need no key: one class per strategy,
/// the same as the schema form's.
@Suite("Schema-free form: Targets<any P>")
struct SchemaFreeFormTests {
    /// Both spellings name the same generic class: the schema form and the schema-free form.
    @Test func bothSpellingsAreOneClass() {
        let withSchema = ExistentialArrayMultiplexer<ScrollViewSchema>()
        let withoutSchema = ExistentialArrayMultiplexer<Targets<any TableObserver>>()
        let name = { (value: Any) in String(describing: type(of: value)).prefix { $0 != "<" } }
        #expect(name(withSchema) == "ExistentialArrayMultiplexer")
        #expect(name(withSchema) == name(withoutSchema))
        #expect(name(WeakArrayMultiplexer<Targets<any TableObserver>>()) == "WeakArrayMultiplexer")
        #expect(name(LifetimeBoundMultiplexer<Targets<any TableObserver>>()) == "LifetimeBoundMultiplexer")
        #expect(name(ConcurrentMultiplexer<Targets<any TableObserver>>()) == "ConcurrentMultiplexer")
    }

    @Test func existentialArray() { Self.exercise(ExistentialArrayMultiplexer<Targets<any TableObserver>>()) }
    @Test func weakArray() { Self.exercise(WeakArrayMultiplexer<Targets<any TableObserver>>(), holdsStrongly: false) }
    @Test func lifetimeBound() {
        Self.exercise(LifetimeBoundMultiplexer<Targets<any TableObserver>>(), holdsStrongly: false)
    }
    @Test func concurrent() { Self.exercise(ConcurrentMultiplexer<Targets<any TableObserver>>()) }
    @Test func closureTable() { Self.exercise(ClosureTableMultiplexer<Targets<any TableObserver>>()) }
    @Test func selectorDictionary() { Self.exercise(SelectorDictionaryMultiplexer<Targets<any TableObserver>>()) }

    /// A class generic over the strategy, as an app writes one to try several: set as the delegate, it delivers
    /// through every strategy's conformance to `TargetMultiplexing`.
    @Test func genericOverTheStrategy() {
        func deliver<Observers: TargetMultiplexing<any TableObserver>>(through _: Observers.Type) -> [String] {
            let record = TableProbe.Record()
            let probes = (0..<2).map { TableProbe($0, record) }
            let delegate = GenericTableObservers<Observers>()
            for probe in probes { delegate.observers.add(probe) }
            let observer: any TableObserver = delegate
            // The weak strategies do not keep the probes alive: this function does, to its end.
            withExtendedLifetime(probes) {
                observer.tableView("g", willDisplay: 1, forRowAt: 2)
                probes[0].height = 10
                record.calls.append("\(observer.shouldHighlight(row: 0)),\(observer.height(forRow: 0) ?? 0)")
            }
            return record.calls
        }
        let expected = ["0:g,1,2", "1:g,1,2", "0:highlight", "1:highlight", "0:height", "true,10.0"]
        #expect(deliver(through: ExistentialArrayMultiplexer<Targets<any TableObserver>>.self) == expected)
        #expect(deliver(through: ClosureTableMultiplexer<Targets<any TableObserver>>.self) == expected)
        #expect(deliver(through: SelectorDictionaryMultiplexer<Targets<any TableObserver>>.self) == expected)
        #expect(deliver(through: WeakArrayMultiplexer<Targets<any TableObserver>>.self) == expected)
        #expect(deliver(through: LifetimeBoundMultiplexer<Targets<any TableObserver>>.self) == expected)
        #expect(deliver(through: ConcurrentMultiplexer<Targets<any TableObserver>>.self) == expected)
    }

    /// The schema-free form has no selectors: forwarding its one key by name is refused, as an unknown selector is.
    @Test func forwardsNothingByName() throws {
        let multiplexer = SelectorDictionaryMultiplexer<Targets<any TableObserver>>()
        multiplexer.add(TableProbe(0, TableProbe.Record()))
        #expect(throws: ForwardingError.unrecognizedSelector("*", known: [])) {
            try multiplexer.forward("*", arguments: [])
        }
        #expect(throws: ForwardingError.unrecognizedSelector("*", known: [])) {
            try Targets<any TableObserver>.messages[0].unpack([])
        }
    }

    /// Order, the three ways of combining answers, a fold, changes during a delivery and a target that lets go of
    /// itself inside its own callback.
    static func exercise<M: TargetMultiplexing<any TableObserver>>(_ multiplexer: M, holdsStrongly: Bool = true) {
        let record = TableProbe.Record()
        var kept: [TableProbe] = (0..<3).map { TableProbe($0, record) }
        for probe in kept { multiplexer.add(probe) }
        #expect(multiplexer.count == 3)

        multiplexer.forEach { $0.tableView("t", willDisplay: 7, forRowAt: 2) }
        #expect(record.calls == ["0:t,7,2", "1:t,7,2", "2:t,7,2"])

        record.calls = []
        kept[1].highlights = false
        #expect(!multiplexer.askAll { $0.shouldHighlight(row: 1) })
        #expect(record.calls == ["0:highlight", "1:highlight", "2:highlight"], "every target asked")

        record.calls = []
        kept[1].height = 44
        kept[2].height = 60
        #expect(multiplexer.askUntilAnswered { $0.height(forRow: 0) } == 44)
        #expect(record.calls == ["0:height", "1:height"], "stops at the first answer")
        #expect(multiplexer.reduce(0.0) { $0 + ($1.height(forRow: 0) ?? 0) } == 104)

        // A target added during a delivery first receives the next one; one removed still receives this one.
        record.calls = []
        let late = TableProbe(3, record)
        kept[0].onWillDisplay = { _ in
            multiplexer.add(late)
            multiplexer.remove(kept[2])
        }
        multiplexer.forEach { $0.tableView("u", willDisplay: 1, forRowAt: 1) }
        #expect(record.calls == ["0:u,1,1", "1:u,1,1", "2:u,1,1"])
        kept[0].onWillDisplay = nil
        record.calls = []
        multiplexer.forEach { $0.tableView("v", willDisplay: 1, forRowAt: 1) }
        #expect(record.calls == ["0:v,1,1", "1:v,1,1", "3:v,1,1"])
        multiplexer.remove(late)

        // A target whose callback lets go of the last reference to it is not freed inside that callback.
        if holdsStrongly {
            kept[1].onWillDisplay = { probe in multiplexer.remove(probe) }
            kept.remove(at: 1)
            multiplexer.forEach { $0.tableView("w", willDisplay: 0, forRowAt: 0) }
            #expect(record.freedInsideOwnCallback.isEmpty)
            #expect(multiplexer.count == 1)
        }
        _ = kept
    }
}
