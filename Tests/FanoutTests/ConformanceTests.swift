import Fanout
import FanoutScrollViewKit
import Testing

/// The contract of ``ScrollViewMultiplexer``, written once and run for every
/// ``DispatchStrategy``: a new strategy is checked by adding its case.
@Suite("Conformance of every strategy")
struct ConformanceTests {
    let scrollView = ScrollView()

    // MARK: 1. Order, duplicates, count

    @Test("delivers in registration order", arguments: DispatchStrategy.allCases)
    func deliversInRegistrationOrder(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(5, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        multiplexer.remove(probes[1])
        multiplexer.add(probes[1])
        multiplexer.scrollViewDidScroll(scrollView)
        multiplexer.scrollViewDidEndDragging(scrollView, willDecelerate: true)
        expectDeliveries(log, .didScroll, [0, 2, 3, 4, 1])
        #expect(log.deliveries.filter { $0.message == .didEndDragging }.map(\.description)
            == ["0.didEndDragging(true)", "2.didEndDragging(true)", "3.didEndDragging(true)",
                "4.didEndDragging(true)", "1.didEndDragging(true)"])
    }

    @Test("adding twice and removing strangers are no-ops; count is exact", arguments: DispatchStrategy.allCases)
    func countIsExact(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        #expect(multiplexer.count == 0)
        let probes = makeProbes(3, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        #expect(multiplexer.count == 3)
        multiplexer.add(probes[0])
        multiplexer.add(probes[2])
        #expect(multiplexer.count == 3)
        multiplexer.remove(Probe(99, log: log))
        #expect(multiplexer.count == 3)
        multiplexer.remove(probes[1])
        multiplexer.remove(probes[1])
        #expect(multiplexer.count == 2)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 2])
        for probe in probes { multiplexer.remove(probe) }
        #expect(multiplexer.count == 0)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 2])
    }

    // MARK: 2. responds(to:)

    @Test("only responding targets receive a message", arguments: DispatchStrategy.allCases)
    func onlyRespondersReceive(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(6, in: multiplexer, log: log) { id in
            id.isMultiple(of: 2) ? [.didScroll, .viewForZooming] : [.didEndDragging, .shouldScrollToTop]
        }
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        multiplexer.scrollViewDidScroll(scrollView)
        multiplexer.scrollViewDidEndDragging(scrollView, willDecelerate: false)
        _ = multiplexer.scrollViewShouldScrollToTop(scrollView)
        _ = multiplexer.viewForZooming(in: scrollView)
        expectDeliveries(log, .didScroll, [0, 2, 4])
        expectDeliveries(log, .didEndDragging, [1, 3, 5])
        expectDeliveries(log, .shouldScrollToTop, [1, 3, 5])
        expectDeliveries(log, .viewForZooming, [0, 2, 4])
    }

    @Test("responds(to:) is read when a target is added", arguments: DispatchStrategy.allCases)
    func respondsIsReadAtAdd(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probe = Probe(0, log: log, responders: [.didScroll])
        multiplexer.add(probe)
        probe.responders = [.didEndDragging]
        multiplexer.scrollViewDidScroll(scrollView)
        multiplexer.scrollViewDidEndDragging(scrollView, willDecelerate: false)
        expectDeliveries(log, .didScroll, [0])
        expectDeliveries(log, .didEndDragging, [])
        multiplexer.remove(probe)
        multiplexer.add(probe)
        multiplexer.scrollViewDidEndDragging(scrollView, willDecelerate: false)
        expectDeliveries(log, .didEndDragging, [0])
    }

    @Test("the multiplexer responds iff any registered target responds", arguments: DispatchStrategy.allCases)
    func respondsIfAnyTargetResponds(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        for message in ScrollViewMessage.allCases { #expect(!multiplexer.responds(to: message)) }
        let first = Probe(0, log: log, responders: [.didScroll])
        let second = Probe(1, log: log, responders: [.didScroll, .viewForZooming])
        multiplexer.add(first)
        multiplexer.add(second)
        #expect(multiplexer.responds(to: .didScroll))
        #expect(multiplexer.responds(to: .viewForZooming), "a later target's answer counts, not just the first's")
        #expect(!multiplexer.responds(to: .didEndDragging))
        #expect(!multiplexer.responds(to: .shouldScrollToTop))
        multiplexer.remove(second)
        #expect(!multiplexer.responds(to: .viewForZooming))
        #expect(multiplexer.responds(to: .didScroll))
        multiplexer.remove(first)
        #expect(!multiplexer.responds(to: .didScroll))
    }

    // MARK: 3. shouldScrollToTop

    @Test("shouldScrollToTop asks everyone and answers the AND", arguments: DispatchStrategy.allCases)
    func shouldScrollToTopIsConjunction(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        #expect(multiplexer.scrollViewShouldScrollToTop(scrollView), "no responder means true")
        let probes = makeProbes(4, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        #expect(multiplexer.scrollViewShouldScrollToTop(scrollView))
        probes[1].scrollToTopAnswer = false
        #expect(!multiplexer.scrollViewShouldScrollToTop(scrollView))
        expectDeliveries(log, .shouldScrollToTop, [0, 1, 2, 3, 0, 1, 2, 3])
        let silent = Probe(9, log: log, responders: [])
        let onlySilent = strategy.makeMultiplexer()
        onlySilent.add(silent)
        #expect(onlySilent.count == 1, "registered, responding to nothing")
        #expect(onlySilent.scrollViewShouldScrollToTop(scrollView), "no responder means true")
        withExtendedLifetime(silent) {}
    }

    // MARK: 4. viewForZooming

    @Test("viewForZooming stops at the first non-nil answer", arguments: DispatchStrategy.allCases)
    func viewForZoomingFirstAnswerWins(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        #expect(multiplexer.viewForZooming(in: scrollView) == nil)
        let probes = makeProbes(4, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        #expect(multiplexer.viewForZooming(in: scrollView) == nil)
        expectDeliveries(log, .viewForZooming, [0, 1, 2, 3])
        let view1 = SilentTarget(), view2 = SilentTarget()
        probes[1].zoomAnswer = view1
        probes[2].zoomAnswer = view2
        log.deliveries.removeAll()
        #expect(multiplexer.viewForZooming(in: scrollView) === view1)
        expectDeliveries(log, .viewForZooming, [0, 1])
    }

    // MARK: 4b. willEndDragging: three arguments, the last written through

    @Test("willEndDragging reaches every responder in order, each seeing the offset the ones before it wrote",
          arguments: DispatchStrategy.allCases)
    func willEndDraggingWritesThrough(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(4, in: multiplexer, log: log) { id in
            id == 2 ? [.didScroll] : Set(ScrollViewMessage.allCases)
        }
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        var offset = 100.0
        multiplexer.scrollViewWillEndDragging(scrollView, withVelocity: 3, targetContentOffset: &offset)
        #expect(log.deliveries.map(\.detail) == ["3.0 100.0", "3.0 100.0", "3.0 101.0"])
        expectDeliveries(log, .willEndDragging, [0, 1, 3])
        #expect(offset == 104)
        let view = ScrollView()
        view.setDelegate(multiplexer)
        view.scroll(to: 10)
        #expect(view.willEndDragging(withVelocity: 5) == 19, "15, as the targets 1 and 3 moved it")
    }

    // MARK: 5. Mutation during dispatch

    @Test("a target added during a dispatch first receives the next message", arguments: DispatchStrategy.allCases)
    func addDuringDispatch(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(3, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        let late = Probe(7, log: log)
        probes[1].onDidScroll = { _ in multiplexer.add(late) }
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2])
        probes[1].onDidScroll = nil
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2, 0, 1, 2, 7])
    }

    @Test("a target removed during a dispatch gets the message in flight, then nothing",
          arguments: DispatchStrategy.allCases)
    func removeDuringDispatch(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(4, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        defer { probes[1].onDidScroll = nil }  // the hook captures the probes: break the cycle
        // Target 1 removes itself, target 0 (already served) and target 3 (not yet served).
        probes[1].onDidScroll = { probe in
            multiplexer.remove(probe)
            multiplexer.remove(probes[0])
            multiplexer.remove(probes[3])
        }
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2, 3])
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1, 2, 3, 2])
        #expect(multiplexer.count == 1)
    }

    // MARK: 6. Re-entrancy

    @Test("callbacks may send through the same multiplexer, nested three deep", arguments: DispatchStrategy.allCases)
    func reentrantDispatch(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(2, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        defer { probes[0].onDidScroll = nil }  // the hook captures the multiplexer: break the cycle
        var depth = 0
        probes[0].onDidScroll = { _ in
            guard depth < 3 else { return }
            depth += 1
            multiplexer.scrollViewDidScroll(scrollView)
            #expect(multiplexer.scrollViewShouldScrollToTop(scrollView))
            depth -= 1
        }
        multiplexer.scrollViewDidScroll(scrollView)
        // Each level: 0 (which recurses), then the nested level, then the rest.
        expectDeliveries(log, .didScroll, [0, 0, 0, 0, 1, 1, 1, 1])
        expectDeliveries(log, .shouldScrollToTop, [0, 1, 0, 1, 0, 1])
    }

    // MARK: 7. Ownership

    @Test("the strong strategies hold targets until removed",
          arguments: DispatchStrategy.allCases.filter(\.holdsTargetsStrongly))
    func holdsTargetsStrongly(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: log)
            weakProbe = probe
            multiplexer.add(probe)
        }
        #expect(weakProbe != nil)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
        multiplexer.remove(weakProbe!)
        #expect(weakProbe == nil)
        #expect(log.deallocated == [0])
    }

    @Test("no retain cycle between the scroll view and its multiplexer", arguments: DispatchStrategy.allCases)
    func noRetainCycle(strategy: DispatchStrategy) {
        let log = Log()
        weak var weakMultiplexer: (any ScrollViewMultiplexer)?
        weak var weakView: ScrollView?
        do {
            let view = ScrollView()
            let multiplexer = strategy.makeMultiplexer()
            let probe = Probe(0, log: log)
            multiplexer.add(probe)
            view.delegate = multiplexer
            view.scroll(to: 1)
            weakMultiplexer = multiplexer
            weakView = view
        }
        #expect(weakMultiplexer == nil)
        #expect(weakView == nil)
        #expect(log.deallocated == [0])
    }

    // MARK: 8. End to end

    @Test("works as a ScrollView's delegate", arguments: DispatchStrategy.allCases)
    func endToEnd(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        view.setDelegate(multiplexer)  // assigned before the targets: the view re-reads responds-to as they come
        let probes = makeProbes(3, in: multiplexer, log: log) { id in
            id == 2 ? [.didScroll] : Set(ScrollViewMessage.allCases)
        }
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        view.scroll(to: 42)
        expectDeliveries(log, .didScroll, [0, 1, 2])
        #expect(log.deliveries.first?.detail == "42.0")
        view.endDragging(willDecelerate: true)
        expectDeliveries(log, .didEndDragging, [0, 1])
        probes[1].scrollToTopAnswer = false
        #expect(!view.scrollToTop())
        #expect(view.contentOffset == 42)
        probes[1].scrollToTopAnswer = true
        #expect(view.scrollToTop())
        #expect(view.contentOffset == 0)
        expectDeliveries(log, .didScroll, [0, 1, 2, 0, 1, 2])
        let zoom = SilentTarget()
        probes[1].zoomAnswer = zoom
        #expect(view.viewForZooming() === zoom)
    }

    @Test("a scroll view with no responding delegate proceeds", arguments: DispatchStrategy.allCases)
    func noResponders(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer()
        view.delegate = multiplexer
        let silent = Probe(0, log: Log(), responders: [])
        defer { withExtendedLifetime(silent) {} }  // alive for the weak strategies too: registered, responding to nothing
        multiplexer.add(silent)
        #expect(multiplexer.count == 1)
        view.scroll(to: 5)
        #expect(view.scrollToTop())
        #expect(view.contentOffset == 0)
        #expect(view.viewForZooming() == nil)
    }

    @Test("a target that implements nothing gets the defaults", arguments: DispatchStrategy.allCases)
    func defaultsApply(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), target = SilentTarget()
        multiplexer.add(target)
        #expect(multiplexer.responds(to: .viewForZooming))
        multiplexer.scrollViewDidScroll(scrollView)
        #expect(multiplexer.scrollViewShouldScrollToTop(scrollView))
        #expect(multiplexer.viewForZooming(in: scrollView) == nil)
        #expect(multiplexer.count == 1)
    }

    @Test("many targets: every one receives each message once", arguments: DispatchStrategy.allCases)
    func manyTargets(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probes = makeProbes(300, in: multiplexer, log: log)
        defer { withExtendedLifetime(probes) {} }  // optimized builds may end a lifetime at its last use
        for probe in probes where probe.id.isMultiple(of: 3) { multiplexer.remove(probe) }
        #expect(multiplexer.count == 200)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, probes.map(\.id).filter { !$0.isMultiple(of: 3) })
    }
}
