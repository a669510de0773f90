import Fanout
import FanoutScrollViewKit
import Testing

// A target let go while a dispatch that began with it is under way: still called in that dispatch, alive through
// its call, freed once the outermost dispatch has ended. For every strategy that holds its targets (`lifetimeBound`
// through an owner), with the target let go by another target's callback inside a nested dispatch, or by its
// owner's deinit. The test keeps only weak references to the target, so a storage that frees it too early (a crash,
// or a dead reference seen inside its call) or keeps it too long (alive after the dispatch) fails. `.ci/run` runs
// these in a debug build and in a release build under AddressSanitizer.

/// A target whose `didScroll` runs `onDidScroll`.
private final class Callee: ScrollViewDelegate {
    var onDidScroll: () -> Void = {}
    func scrollViewDidScroll(_ scrollView: ScrollView) { onDidScroll() }
}

/// An owner whose deinit lets go of a target: for `lifetimeBound`, its bag ends the registration; for the others,
/// its deinit removes the target, as a screen that removes its behaviours when it goes.
private final class Owner: RegistrationHolder {
    let registrations = RegistrationBag()
    var onDeinit: () -> Void = {}
    deinit { onDeinit() }
}

/// The strategies that hold a target until it is let go, and how each registers one so that it holds it.
enum Holding: String, CaseIterable, Sendable {
    case existentialArray, closureTable, selectorDictionary, concurrent, lifetimeBoundToOwner

    func make() -> any ScrollViewMultiplexer {
        DispatchStrategy(rawValue: self == .lifetimeBoundToOwner ? "lifetimeBound" : rawValue)!.makeMultiplexer()
    }

    /// Registers `target` so that `multiplexer` holds it strongly; `owner`'s deinit lets go of it.
    fileprivate func register(_ target: Callee, in multiplexer: any ScrollViewMultiplexer, owner: Owner) {
        if self == .lifetimeBoundToOwner {
            (multiplexer as! LifetimeBoundMultiplexer<ScrollViewSchema>).add(target, boundTo: owner)
        } else {
            multiplexer.add(target)
            owner.onDeinit = { [weak target, unowned multiplexer] in if let target { multiplexer.remove(target) } }
        }
    }
}

/// Sends one `didScroll` from a function of its own, as a scroll view does: inlined into the test, the dispatch would
/// let the optimizer end a local's lifetime after its last use, before the checks.
@inline(never)
private func scroll(_ multiplexer: any ScrollViewMultiplexer) {
    multiplexer.scrollViewDidScroll(ScrollView())
}

@Suite("A target let go during a dispatch lives through its own call, and no longer")
struct LetGoMidDispatchTests {
    @Test("removed by another target's callback in a nested dispatch: called in both dispatches, freed after the outer",
          arguments: Holding.allCases)
    func removedInNestedDispatch(_ holding: Holding) {
        let multiplexer = holding.make()
        let first = Callee()
        let owner = Owner()
        weak var second: Callee?
        var aliveInItsCalls: [Bool] = []
        var depth = 0
        do {
            let target = Callee()
            second = target
            multiplexer.add(first)
            holding.register(target, in: multiplexer, owner: owner)
            target.onDidScroll = { aliveInItsCalls.append(second != nil) }
        }
        first.onDidScroll = { [unowned multiplexer] in
            depth += 1
            defer { depth -= 1 }
            if depth == 1 {
                scroll(multiplexer)
            } else if let target = second {
                multiplexer.remove(target)
            }
        }
        #expect(second != nil, "registered, so held")
        scroll(multiplexer)
        #expect(aliveInItsCalls == [true, true], "the nested dispatch and the outer one each began with it")
        #expect(second == nil, "freed once the outermost dispatch ended")
        #expect(multiplexer.count == 1)
        aliveInItsCalls.removeAll()
        scroll(multiplexer)
        #expect(aliveInItsCalls.isEmpty)
        withExtendedLifetime(owner) {}
    }

    @Test("let go by its owner's deinit, run from its own callback or another target's: alive through its call, freed after",
          arguments: Holding.allCases, [true, false])
    func letGoByOwnerDeinit(_ holding: Holding, fromItsOwnCallback: Bool) {
        let multiplexer = holding.make()
        let first = Callee()
        weak var second: Callee?
        weak var ownerSeen: Owner?
        var owner: Owner? = Owner()
        var aliveInItsCalls: [Bool] = []
        do {
            let target = Callee()
            second = target
            ownerSeen = owner
            multiplexer.add(first)
            holding.register(target, in: multiplexer, owner: owner!)
            target.onDidScroll = {
                if fromItsOwnCallback { owner = nil }
                aliveInItsCalls.append(second != nil)
            }
        }
        if !fromItsOwnCallback { first.onDidScroll = { owner = nil } }
        #expect(second != nil, "registered, so held")
        scroll(multiplexer)
        #expect(ownerSeen == nil, "the owner's deinit ran during the dispatch")
        if fromItsOwnCallback || holding != .lifetimeBoundToOwner {
            #expect(aliveInItsCalls == [true], "the dispatch began with it")
        } else {
            // A registration bound to an owner ends when the owner goes, in flight too: a behaviour whose screen
            // is gone receives nothing more (Documentation/Strategies.md, lifetimeBound).
            #expect(aliveInItsCalls.isEmpty)
        }
        #expect(second == nil, "freed once the dispatch ended")
        #expect(multiplexer.count == 1)
    }
}
