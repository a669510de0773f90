import Fanout
import FanoutScrollViewKit
import Testing

/// Sends `didScroll` as a scroll view does: from a function of its own. With the whole dispatch inlined into the
/// test, a release build (once dispatch iterated the pinned buffer instead of an array copy) had not freed the target
/// yet where the test checks it after its owner's death, though nothing held it (its retain count was the same
/// before and after the dispatch, and observing it made the difference go): Swift may end an object's lifetime
/// after its last use in optimized code. Through a function of its own, the target is freed by the check.
@inline(never)
func dispatchDidScroll(through delegate: any ScrollViewDelegate, _ scrollView: ScrollView) {
    delegate.scrollViewDidScroll(scrollView)
}

/// `LifetimeBoundMultiplexer`'s own ways to register: bound to an owner, and
/// the unsafe unretained opt-in with its debug-build traps.
@Suite("lifetimeBound registrations")
struct LifetimeBoundTests {
    let scrollView = ScrollView()

    @Test("add(_:boundTo:) keeps the target alive until its owner is deallocated")
    func boundToOwner() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var screen: Screen? = Screen()
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: log)
            weakProbe = probe
            multiplexer.add(probe, boundTo: screen!)
        }
        #expect(weakProbe != nil, "the multiplexer holds the target")
        #expect(multiplexer.count == 1)
        #expect(screen!.registrations.count == 1)
        dispatchDidScroll(through: multiplexer, scrollView)
        screen = nil
        #expect(weakProbe == nil, "the owner's death ended the registration and released the target")
        #expect(multiplexer.count == 0)
        #expect(!multiplexer.responds(to: .didScroll))
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("a target bound to two owners lives until the last of them is deallocated")
    func boundToTwoOwners() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var cell: Screen? = Screen(), screen: Screen? = Screen()
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: log)
            weakProbe = probe
            multiplexer.add(probe, boundTo: cell!)
            multiplexer.add(probe, boundTo: screen!)
            multiplexer.add(probe, boundTo: screen!)  // the same owner again: nothing
        }
        #expect(multiplexer.count == 1, "one registration")
        #expect(cell!.registrations.count == 1 && screen!.registrations.count == 1)
        cell = nil
        #expect(weakProbe != nil, "the screen still holds it")
        dispatchDidScroll(through: multiplexer, scrollView)
        expectDeliveries(log, .didScroll, [0])
        screen = nil
        #expect(weakProbe == nil, "the last owner's death ended the registration and released the target")
        #expect(multiplexer.count == 0)
    }

    @Test("a target bound to two owners and removed leaves neither owner's bag holding its registration")
    func removedFromTwoOwners() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
        let cell = Screen(), screen = Screen()
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: Log())
            weakProbe = probe
            multiplexer.add(probe, boundTo: cell)
            multiplexer.add(probe, boundTo: screen)
            multiplexer.remove(probe)
        }
        #expect(weakProbe == nil)
        #expect(cell.registrations.count == 0 && screen.registrations.count == 0)
    }

    @Test("add(_:boundTo:) of a target registered with add(_:) binds it to the owner, registered anew last")
    func weaklyHeldThenBound() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var screen: Screen? = Screen()
        let first = Probe(0, log: log)
        weak var weakProbe: Probe?
        do {
            let probe = Probe(1, log: log)
            weakProbe = probe
            multiplexer.add(probe)  // held weakly
            multiplexer.add(first)
            multiplexer.add(probe, boundTo: screen!)
        }
        #expect(weakProbe != nil, "bound to the screen, the target is kept alive")
        #expect(multiplexer.count == 2)
        dispatchDidScroll(through: multiplexer, scrollView)
        expectDeliveries(log, .didScroll, [0, 1])
        screen = nil
        #expect(weakProbe == nil)
        #expect(multiplexer.count == 1)
    }

    @Test("add(_:) of a target bound to an owner does nothing: it stays bound")
    func boundThenAdded() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
        var screen: Screen? = Screen()
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: Log())
            weakProbe = probe
            multiplexer.add(probe, boundTo: screen!)
            multiplexer.add(probe)
        }
        #expect(weakProbe != nil)
        #expect(multiplexer.count == 1)
        screen = nil
        #expect(weakProbe == nil)
        #expect(multiplexer.count == 0)
    }

    @Test("a target bound to an owner that is deallocated during a dispatch lives until the dispatch ends")
    func ownerDeallocatedDuringDispatch() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var screen: Screen? = Screen()
        let first = Probe(0, log: log)
        multiplexer.add(first)
        weak var weakBound: Probe?
        do {
            let bound = Probe(1, log: log)
            weakBound = bound
            bound.onDidScroll = { _ in screen = nil }  // the behaviour dismisses its own screen
            multiplexer.add(bound, boundTo: screen!)
            multiplexer.add(Probe(2, log: log), boundTo: screen!)
        }
        multiplexer.scrollViewDidScroll(scrollView)
        #expect(log.freedInsideOwnCallback.isEmpty)
        #expect(weakBound == nil)
        expectDeliveries(log, .didScroll, [0, 1])
        #expect(multiplexer.count == 1)
    }

    @Test("targets whose owner dies inside a nested dispatch, after a change, are called by neither dispatch again")
    func ownerDeallocatedInsideNestedDispatch() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var screen: Screen? = Screen()
        let keeper = Screen(), first = Probe(0, log: log), extra = Probe(3, log: log)
        multiplexer.add(first, boundTo: keeper)
        var turns = 0
        first.onDidScroll = { [unowned multiplexer, scrollView] _ in
            turns += 1
            if turns == 1 {
                // The outer dispatch reads the first buffer, which this change retires; the nested one reads the next.
                multiplexer.add(extra, boundTo: keeper)
                multiplexer.scrollViewDidScroll(scrollView)
            } else {
                screen = nil  // inside the nested dispatch: both bound targets' registrations end
            }
        }
        weak var weakBound: Probe?
        do {
            let bound = Probe(1, log: log)
            weakBound = bound
            multiplexer.add(bound, boundTo: screen!)
            multiplexer.add(Probe(2, log: log), boundTo: screen!)
        }
        multiplexer.scrollViewDidScroll(scrollView)
        // Outer: 0, then the nested dispatch: 0 (the owner dies), 1 and 2 skipped, 3; outer again: 1 and 2 skipped.
        expectDeliveries(log, .didScroll, [0, 0, 3])
        #expect(log.freedInsideOwnCallback.isEmpty)
        #expect(weakBound == nil, "freed once both dispatches ended")
        #expect(multiplexer.count == 2)
    }

    @Test("a target removed, added again and ended during a dispatch still receives it through its first registration")
    func endOfASecondRegistrationLeavesTheFirst() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        let keeper = Screen(), first = Probe(0, log: log), target = Probe(1, log: log)
        var second: Screen? = Screen()
        multiplexer.add(first, boundTo: keeper)
        multiplexer.add(target, boundTo: keeper)
        first.onDidScroll = { [unowned multiplexer] _ in
            guard second != nil else { return }
            // The dispatch reads the buffer this removal retires; a dispatch in flight still delivers to a removed
            // target. The target's new registration then ends: that must not silence the first one.
            multiplexer.remove(target)
            multiplexer.add(target, boundTo: second!)
            second = nil
        }
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0, 1])
        #expect(multiplexer.count == 1)
    }

    @Test("a target removed and added again during a dispatch keeps its new registration when its first owner goes")
    func endOfAFirstRegistrationLeavesTheSecond() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        let keeper = Screen(), newOwner = Screen(), first = Probe(0, log: log), target = Probe(1, log: log)
        var oldOwner: Screen? = Screen()
        multiplexer.add(first, boundTo: keeper)
        multiplexer.add(target, boundTo: oldOwner!)
        first.onDidScroll = { [unowned multiplexer] _ in
            guard oldOwner != nil else { return }
            // The first registration stays in the buffer this dispatch reads, and its token in the old owner's bag;
            // the old owner's end must end that registration only, not the one the target was added again with.
            multiplexer.remove(target)
            multiplexer.add(target, boundTo: newOwner)
            oldOwner = nil
        }
        multiplexer.scrollViewDidScroll(scrollView)
        #expect(multiplexer.count == 2)
        multiplexer.scrollViewDidScroll(scrollView)
        // The dispatch in flight calls the ended first registration no more; the next one calls the second.
        expectDeliveries(log, .didScroll, [0, 0, 1])
    }

    @Test("add(_:boundTo:) with the target as its own owner traps")
    func boundToItself() async {
        await #expect(processExitsWith: .failure) {
            let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
            let probe = BoundProbe(0, log: Log())
            multiplexer.add(probe, boundTo: probe)
        }
    }

    @Test("unsafeAddUnretained(_:) delivers without keeping the holder alive, and ends with it")
    func unsafeUnretainedUsedCorrectly() {
        let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log()
        var holder: BoundProbe? = BoundProbe(0, log: log)
        unsafe multiplexer.unsafeAddUnretained(holder!)
        multiplexer.scrollViewDidScroll(scrollView)
        #expect(multiplexer.count == 1)
        holder = nil
        #expect(log.deallocated == [0])
        #expect(multiplexer.count == 0)
        multiplexer.scrollViewDidScroll(scrollView)
        expectDeliveries(log, .didScroll, [0])
    }

    @Test("unsafeAddUnretained(_:) refuses a target that is not a RegistrationHolder")
    func unsafeUnretainedNeedsAHolder() async {
        await #expect(processExitsWith: .failure) {
            let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>()
            unsafe multiplexer.unsafeAddUnretained(Probe(0, log: Log()))
        }
    }

    #if DEBUG
    /// The ways an unretained holder can die inside its own callback; each traps in a debug build.
    enum UnretainedMisuse: String, CaseIterable, Sendable {
        /// Its callback drops the last reference.
        case releasesItself
        /// Its callback sends a nested message, then drops the last reference.
        case releasesItselfAfterNestedMessage
        /// Another target's callback for a nested message drops it.
        case releasedByNestedMessage
        /// Dropped two dispatches deep.
        case releasedTwoLevelsDeep
    }

    @Test("an unretained holder deallocated while its callback runs traps with a message (debug)",
          arguments: UnretainedMisuse.allCases)
    func unretainedMisuseTraps(misuse: UnretainedMisuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [misuse = misuse.rawValue as String] in
            let misuse = UnretainedMisuse(rawValue: misuse)!
            let multiplexer = LifetimeBoundMultiplexer<ScrollViewSchema>(), log = Log(), view = ScrollView()
            var holder: BoundProbe? = BoundProbe(0, log: log)
            let other = Probe(1, log: log)
            var depth = 0
            holder!.onDidScroll = { [unowned multiplexer] _ in
                depth += 1
                switch misuse {
                case .releasesItself: holder = nil
                case .releasesItselfAfterNestedMessage:
                    multiplexer.scrollViewDidEndDragging(view, willDecelerate: true)
                    holder = nil
                case .releasedByNestedMessage: multiplexer.scrollViewDidEndDragging(view, willDecelerate: true)
                case .releasedTwoLevelsDeep:
                    if depth < 2 { multiplexer.scrollViewDidScroll(view) } else { holder = nil }
                }
            }
            other.onDidEndDragging = { _ in if misuse == .releasedByNestedMessage { holder = nil } }
            unsafe multiplexer.unsafeAddUnretained(holder!)
            multiplexer.add(other)
            multiplexer.scrollViewDidScroll(view)
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("added with unsafeAddUnretained(_:) was deallocated while one of its own callbacks"),
                "\(message)")
    }
    #endif
}
