import Fanout
import FanoutScrollViewKit
import Testing

/// The weak strategies' contract, for plain targets and for
/// `RegistrationHolder`s: targets deallocated before, during and after a
/// dispatch receive nothing afterwards, `count` counts live targets exactly,
/// and the multiplexer never keeps a target alive.
@Suite("Weak targets")
struct WeakTargetTests {
    static let weakStrategies = DispatchStrategy.allCases.filter { !$0.holdsTargetsStrongly }
    static let arguments = weakStrategies.flatMap { strategy in TargetKind.allCases.map { (strategy, $0) } }

    let scrollView = ScrollView()

    @Test("a target deallocated before a dispatch receives nothing and is not counted", arguments: arguments)
    func deallocatedBefore(strategy: DispatchStrategy, kind: TargetKind) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        var targets: [Probe?] = (0..<3).map { kind.make($0, log: log) }
        targets[1]!.responders = [.didScroll, .viewForZooming]
        targets[0]!.responders = [.didScroll]
        targets[2]!.responders = [.didScroll]
        for target in targets { multiplexer.add(target!) }
        #expect(multiplexer.responds(to: .viewForZooming))
        targets[1] = nil
        #expect(log.deallocated == [1])
        #expect(multiplexer.count == 2)
        #expect(!multiplexer.responds(to: .viewForZooming), "only the dead target responded")
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 2])
    }

    @Test("a target deallocated during a dispatch, by another target's callback, receives nothing",
          arguments: arguments)
    func deallocatedDuring(strategy: DispatchStrategy, kind: TargetKind) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        var targets: [Probe?] = (0..<3).map { kind.make($0, log: log) }
        for target in targets { multiplexer.add(target!) }
        targets[0]!.onDidScroll = { _ in targets[2] = nil }
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1])
        #expect(log.deallocated == [2])
        #expect(multiplexer.count == 2)
        targets[0]!.onDidScroll = nil
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 0, 1])
    }

    @Test("a target deallocated after a dispatch receives nothing afterwards", arguments: arguments)
    func deallocatedAfter(strategy: DispatchStrategy, kind: TargetKind) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        var targets: [Probe?] = (0..<3).map { kind.make($0, log: log) }
        for target in targets { multiplexer.add(target!) }
        multiplexer.scrollViewDidScroll(scrollView)
        targets[1] = nil
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2, 0, 2])
        #expect(multiplexer.count == 2)
        targets.removeAll()
        #expect(multiplexer.count == 0)
        #expect(!multiplexer.responds(to: .didScroll))
    }

    @Test("a plain target may drop the last strong reference to itself inside its own callback",
          arguments: weakStrategies)
    func deallocatedInsideOwnCallback(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        var targets: [Probe?] = (0..<3).map { Probe($0, log: log) }
        for target in targets { multiplexer.add(target!) }
        targets[1]!.onDidScroll = { probe in
            targets[1] = nil
            #expect(probe.id == 1, "still alive until the callback returns")
        }
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2])
        #expect(log.deallocated == [1])
        #expect(multiplexer.count == 2)
    }

    @Test("the multiplexer never keeps a target alive, and a new object at a dead one's address is a new target",
          arguments: arguments)
    func noOwnership(strategy: DispatchStrategy, kind: TargetKind) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        for round in 0..<50 {
            let target = kind.make(round, log: log)
            multiplexer.add(target)
            #expect(multiplexer.count == 1)
        }
        #expect(log.deallocated == Array(0..<50))
        #expect(multiplexer.count == 0)
        let survivor = kind.make(99, log: log)
        multiplexer.add(survivor)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [99])
    }

    @Test("no retain cycle: the multiplexer can go first, and targets outlive it", arguments: arguments)
    func multiplexerGoesFirst(strategy: DispatchStrategy, kind: TargetKind) {
        let log = Log()
        let target = kind.make(0, log: log)
        weak var weakMultiplexer: (any ScrollViewMultiplexer)?
        do {
            let multiplexer = strategy.makeMultiplexer()
            multiplexer.add(target)
            weakMultiplexer = multiplexer
        }
        #expect(weakMultiplexer == nil)
        if let bound = target as? BoundProbe {
            #expect(bound.registrations.count == 0, "the ended registration left the bag")
        }
        target.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("a dead target's entry goes when the dispatch that finds it ends, with one announcement",
          arguments: weakStrategies)
    func deadEntryDroppedByDispatch(strategy: DispatchStrategy) {
        final class Announcements { var count = 0 }
        let multiplexer = strategy.makeMultiplexer(), log = Log(), announcements = Announcements()
        let scroller = Probe(0, log: log, responders: [.didScroll])
        var zoomer: Probe? = Probe(1, log: log, responders: [.didScroll, .viewForZooming])
        multiplexer.add(scroller)
        multiplexer.add(zoomer!)
        multiplexer.respondersDidChange = { [announcements] in announcements.count += 1 }
        zoomer = nil
        #expect(announcements.count == 0, "nothing noticed the death yet")
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
        #expect(announcements.count == 1, "the entry went at the dispatch's end: viewForZooming has no responder")
        multiplexer.scrollViewDidScroll(scrollView)
        #expect(announcements.count == 1)
        #expect(multiplexer.count == 1)
        withExtendedLifetime(scroller) {}
    }

    #if !_runtime(_ObjC)  // there a weak reference stands in for the unowned count
        @Test("a registration keeps its target's memory with one unowned count, given back when its entry goes",
              arguments: arguments)
        func unownedCountGivenBack(strategy: DispatchStrategy, kind: TargetKind) {
            let multiplexer = strategy.makeMultiplexer(), log = Log()
            let target = kind.make(0, log: log)
            let before = _getUnownedRetainCount(target), strongBefore = _getRetainCount(target)
            multiplexer.add(target)
            #expect(_getUnownedRetainCount(target) == before + 1)
            #expect(_getRetainCount(target) == strongBefore, "and no strong count")
            multiplexer.remove(target)
            #expect(_getUnownedRetainCount(target) == before)
        }
    #endif

    @Test("lifetimeBound: a holder's bag carries one token per live registration")
    func holderTokens() {
        let log = Log()
        let holder = BoundProbe(0, log: log)
        let first = LifetimeBoundMultiplexer<ScrollViewSchema>(), second = LifetimeBoundMultiplexer<ScrollViewSchema>()
        first.add(holder)
        second.add(holder)
        first.add(holder)
        #expect(holder.registrations.count == 2)
        first.remove(holder)
        #expect(holder.registrations.count == 1)
        second.scrollViewDidScroll(scrollView)
        first.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("a weak strategy refuses a target that is not an object, naming its type", arguments: ["weakArray", "lifetimeBound"])
    func valueTargetRefused(strategy: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [strategy] in
            let value: any ValueTarget = CountingValue()
            if strategy == "weakArray" {
                WeakArrayMultiplexer<ValueSchema>().add(value)
            } else {
                LifetimeBoundMultiplexer<ValueSchema>().add(value)
            }
        }
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(output.contains("ValueTarget is not a class or class-constrained existential"), "\(output)")
    }
}

/// A protocol that values may adopt: a weak strategy cannot hold its targets.
protocol ValueTarget {
    func ping()
}

struct CountingValue: ValueTarget {
    func ping() {}
}

enum ValueMessage: String, MessageKey {
    case ping = "ping"
}

enum ValueSchema: DelegateSchema {
    typealias Target = any ValueTarget
    typealias Key = ValueMessage
    static var ping: Message<Self, Void, Void> { .init(.ping) { $0.ping() } }
    static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self {
        visitor.visit(ping)
    }
}

/// Glue written before `weakReference(to:)` stopped being a requirement: it declares its own, which still compiles,
/// without a warning, and which no strategy calls.
protocol Pinger: AnyObject {
    func ping()
}

final class PingCounter: Pinger {
    var pings = 0
    func ping() { pings += 1 }
}

enum LegacyPingSchema: DelegateSchema {
    typealias Target = any Pinger
    typealias Key = ValueMessage
    static var ping: Message<Self, Void, Void> { .init(.ping) { $0.ping() } }
    static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self {
        visitor.visit(ping)
    }
    static func weakReference(to target: any Pinger) -> () -> (any Pinger)? {
        { [weak target] in target }
    }
}

@Test("glue that still declares weakReference(to:) compiles, and the weak strategies hold its targets themselves")
func legacyWeakReferenceGlue() {
    let multiplexer = WeakArrayMultiplexer<LegacyPingSchema>()
    let counter = PingCounter()
    multiplexer.add(counter)
    multiplexer.send(LegacyPingSchema.ping, ())
    #expect(counter.pings == 1)
    #expect(LegacyPingSchema.weakReference(to: counter)() === counter)
}
