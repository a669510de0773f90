import Fanout
import FanoutScrollViewKit
import Testing

/// A host that caches its delegate's responds-to answers when the delegate is
/// assigned (`ScrollView`, as UIKit's views do), and the hook that keeps it
/// current: `respondersDidChange`.
@Suite("Hosts that cache responds-to")
struct RespondersHookTests {
    /// Counts the hook's calls and records, at each, whether a probe's
    /// callback was on the stack.
    final class Announcements {
        var count = 0
        var duringCallback = 0
        var callbacksOnStack = 0
    }

    static func watch(_ multiplexer: any ScrollViewMultiplexer) -> Announcements {
        let announcements = Announcements()
        multiplexer.respondersDidChange = { [announcements] in
            announcements.count += 1
            if announcements.callbacksOnStack > 0 { announcements.duringCallback += 1 }
        }
        return announcements
    }

    static let singleThreaded = DispatchStrategy.allCases.filter { $0 != .concurrent }

    @Test("the host reads responds-to when the delegate is assigned, and only then", arguments: DispatchStrategy.allCases)
    func hostCachesAtAssignment(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        view.delegate = multiplexer
        let probe = Probe(0, log: log, responders: [.didScroll])
        defer { withExtendedLifetime(probe) {} }
        multiplexer.add(probe)
        view.scroll(to: 1)
        expectDeliveries(log, .didScroll, [])  // the view still has the empty multiplexer's answers
        view.delegate = multiplexer
        view.scroll(to: 2)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("a target added after assignment that alone implements a message receives it", arguments: DispatchStrategy.allCases)
    func addedTargetReceivesItsMessage(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        view.setDelegate(multiplexer)
        let scroller = Probe(0, log: log, responders: [.didScroll])
        let zoomer = Probe(1, log: log, responders: [.viewForZooming])
        defer { withExtendedLifetime((scroller, zoomer)) {} }
        multiplexer.add(scroller)
        #expect(view.viewForZooming() == nil)
        expectDeliveries(log, .viewForZooming, [])
        let zoom = SilentTarget()
        zoomer.zoomAnswer = zoom
        multiplexer.add(zoomer)
        #expect(view.delegateResponds.contains(.viewForZooming))
        #expect(view.viewForZooming() === zoom)
        expectDeliveries(log, .viewForZooming, [1])
        view.scroll(to: 3)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("removing the last responder stops the host sending; a stale send does nothing", arguments: DispatchStrategy.allCases)
    func removingLastResponder(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        view.setDelegate(multiplexer)
        let probe = Probe(0, log: log)
        defer { withExtendedLifetime(probe) {} }
        multiplexer.add(probe)
        #expect(view.delegateResponds == Set(ScrollViewMessage.allCases))
        multiplexer.remove(probe)
        #expect(view.delegateResponds.isEmpty)
        view.scroll(to: 1)
        #expect(view.scrollToTop())
        #expect(view.viewForZooming() == nil)
        // A host whose answers are stale sends anyway (dd-sdk-ios #2942): nothing is delivered, nothing traps.
        let stale = ScrollView()
        multiplexer.add(probe)
        stale.delegate = multiplexer
        multiplexer.remove(probe)
        stale.scroll(to: 2)
        #expect(stale.scrollToTop())
        #expect(stale.viewForZooming() == nil)
        #expect(log.deliveries.isEmpty)
    }

    @Test("the hook runs once per change of the responding set, and not otherwise", arguments: DispatchStrategy.allCases)
    func announcesChangesOnly(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let announcements = Self.watch(multiplexer)
        let first = Probe(0, log: log, responders: [.didScroll])
        let second = Probe(1, log: log, responders: [.didScroll])
        let silent = Probe(2, log: log, responders: [])
        defer { withExtendedLifetime((first, second, silent)) {} }
        multiplexer.add(first)
        #expect(announcements.count == 1)
        multiplexer.add(second)  // didScroll had a responder already
        multiplexer.add(silent)
        multiplexer.add(first)  // registered already
        multiplexer.remove(first)
        #expect(announcements.count == 1)
        multiplexer.remove(second)
        #expect(announcements.count == 2)
        multiplexer.remove(second)  // not registered
        #expect(announcements.count == 2)
    }

    @Test("a change during a dispatch is announced once, after the outermost dispatch", arguments: singleThreaded)
    func changeDuringDispatchIsDeferred(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        let announcements = Self.watch(multiplexer)
        let outer = Probe(0, log: log, responders: [.didScroll])
        let inner = Probe(1, log: log, responders: [.didEndDragging])
        let zoomer = Probe(2, log: log, responders: [.viewForZooming])
        let dragger = Probe(3, log: log, responders: [.didEndDragging, .shouldScrollToTop])
        defer { withExtendedLifetime((outer, inner, zoomer, dragger)) {} }
        multiplexer.add(outer)
        multiplexer.add(inner)
        #expect(announcements.count == 2)
        outer.onDidScroll = { [unowned multiplexer] _ in
            announcements.callbacksOnStack += 1
            defer { announcements.callbacksOnStack -= 1 }
            multiplexer.add(zoomer)
            multiplexer.scrollViewDidEndDragging(view, willDecelerate: false)  // a nested dispatch
        }
        inner.onDidEndDragging = { [unowned multiplexer] _ in
            multiplexer.add(dragger)
            multiplexer.remove(zoomer)
            multiplexer.add(zoomer)
        }
        multiplexer.scrollViewDidScroll(view)
        expectDeliveries(log, .didEndDragging, [1])
        #expect(announcements.count == 3)
        #expect(announcements.duringCallback == 0)
    }

    /// A probe that runs `onDeinit` when it is freed.
    final class DeinitProbe: Probe {
        var onDeinit: () -> Void = {}
        deinit { onDeinit() }
    }

    @Test("a change from the deinit of a target that the dispatch's end frees is announced after that dispatch",
          arguments: [DispatchStrategy.existentialArray, .closureTable, .selectorDictionary])
    func changeFromDeinitAtDispatchEndIsDeferred(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        let announcements = Self.watch(multiplexer)
        let first = Probe(0, log: log, responders: [.didScroll])
        let zoomer = Probe(2, log: log, responders: [.viewForZooming])
        defer { withExtendedLifetime((first, zoomer)) {} }
        multiplexer.add(first)
        weak var doomedReference: DeinitProbe?
        var announcedInDeinit: Int?
        var dispatchReturned = false
        do {
            let doomed = DeinitProbe(1, log: log, responders: [.didScroll])
            doomedReference = doomed
            // Freed when the dispatch that pinned it ends (the callback below removed it): the change it makes is one
            // made while that dispatch is in flight.
            doomed.onDeinit = { [unowned multiplexer] in
                multiplexer.add(zoomer)
                announcedInDeinit = announcements.count
            }
            multiplexer.add(doomed)
        }
        let before = announcements.count
        first.onDidScroll = { [unowned multiplexer] _ in
            if let doomed = doomedReference { multiplexer.remove(doomed) }
        }
        multiplexer.scrollViewDidScroll(view)
        dispatchReturned = true
        #expect(doomedReference == nil)
        #expect(announcedInDeinit == before, "the change was announced inside the dispatch's end, from the deinit")
        #expect(announcements.count == before + 1, "announced once, when the dispatch ended")
        #expect(dispatchReturned && multiplexer.responds(to: .viewForZooming))
    }

    @Test("changes during a dispatch that restore the set announce nothing", arguments: singleThreaded)
    func restoredSetIsSilent(strategy: DispatchStrategy) {
        let view = ScrollView(), multiplexer = strategy.makeMultiplexer(), log = Log()
        let outer = Probe(0, log: log, responders: [.didScroll])
        let zoomer = Probe(1, log: log, responders: [.viewForZooming])
        defer { withExtendedLifetime((outer, zoomer)) {} }
        multiplexer.add(outer)
        let announcements = Self.watch(multiplexer)
        outer.onDidScroll = { [unowned multiplexer] _ in
            multiplexer.add(zoomer)
            multiplexer.remove(zoomer)
        }
        multiplexer.scrollViewDidScroll(view)
        #expect(announcements.count == 0)
    }

    @Test("concurrent announces at once, on the writer's thread, even during a dispatch")
    func concurrentAnnouncesAtOnce() {
        let view = ScrollView(), multiplexer = DispatchStrategy.concurrent.makeMultiplexer(), log = Log()
        let announcements = Self.watch(multiplexer)
        let outer = Probe(0, log: log, responders: [.didScroll])
        let zoomer = Probe(1, log: log, responders: [.viewForZooming])
        defer { withExtendedLifetime((outer, zoomer)) {} }
        multiplexer.add(outer)
        outer.onDidScroll = { [unowned multiplexer] _ in
            announcements.callbacksOnStack += 1
            defer { announcements.callbacksOnStack -= 1 }
            multiplexer.add(zoomer)
        }
        multiplexer.scrollViewDidScroll(view)
        #expect(announcements.count == 2)
        #expect(announcements.duringCallback == 1)
    }

    @Test("the hook may read and change the multiplexer", arguments: DispatchStrategy.allCases)
    func hookMayUseTheMultiplexer(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probe = Probe(0, log: log, responders: [.didScroll])
        let follower = Probe(1, log: log, responders: [.didScroll])
        defer { withExtendedLifetime((probe, follower)) {} }
        var seen: [Bool] = []
        multiplexer.respondersDidChange = { [unowned multiplexer] in
            seen.append(multiplexer.responds(to: .didScroll))
            multiplexer.add(follower)  // no change of the set: announces nothing more
        }
        multiplexer.add(probe)
        #expect(seen == [true])
        #expect(multiplexer.count == 2)
    }

    @Test("a target bound to an owner leaves with it, announced from the owner's deinit")
    func announcesFromOwnersDeinit() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var announcedWhileOwnerAlive: Bool?
        weak var weakOwner: BoundProbe?
        do {
            let owner = BoundProbe(0, log: log, responders: [])
            weakOwner = owner
            multiplexer.respondersDidChange = { announcedWhileOwnerAlive = weakOwner != nil }
            multiplexer.add(Probe(1, log: log, responders: [.viewForZooming]), boundTo: owner)
            #expect(announcedWhileOwnerAlive == true, "the add announces, the owner alive")
            // Alive to here: an optimized build may otherwise free it after its last use, before the handler is set.
            withExtendedLifetime(owner) {}
        }
        #expect(announcedWhileOwnerAlive == false)
        #expect(!multiplexer.responds(to: .viewForZooming))
        #expect(multiplexer.count == 0)
    }

    @Test("a weakly held target found gone by count is announced", arguments: [DispatchStrategy.weakArray, .lifetimeBound])
    func weakTargetFoundGone(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let announcements = Self.watch(multiplexer)
        do {
            let probe = Probe(0, log: log, responders: [.didScroll])
            multiplexer.add(probe)
        }
        #expect(log.deallocated == [0])
        #expect(announcements.count == 1)
        #expect(!multiplexer.responds(to: .didScroll))
        #expect(multiplexer.count == 0)
        #expect(announcements.count == 2)
    }

    @Test("responds(toSelector:) answers from the targets, for every strategy", arguments: DispatchStrategy.allCases)
    func respondsToSelector(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(for: ScrollViewSchema.self), log = Log()
        let probe = Probe(0, log: log, responders: [.viewForZooming])
        defer { withExtendedLifetime(probe) {} }
        #expect(!multiplexer.responds(toSelector: ScrollViewMessage.viewForZooming.rawValue))
        multiplexer.add(probe)
        #expect(multiplexer.responds(toSelector: ScrollViewMessage.viewForZooming.rawValue))
        #expect(!multiplexer.responds(toSelector: ScrollViewMessage.didScroll.rawValue))
        #expect(!multiplexer.responds(toSelector: "noSuchSelector:"))
    }
}
