@testable import Fanout
import FanoutScrollViewKit
import Testing

// The pinned buffers of the single-threaded strategies: a dispatch iterates the registrations' buffer
// (`existentialArray`, `lifetimeBound`, `weakArray`) or the message's responder list (`closureTable`, `selectorDictionary`) in place,
// with no reference counted, and a mutation during it retires the buffer instead of changing it. These tests hold only weak references to the targets they let go, so a buffer
// freed too early or kept too long shows.

/// A target whose callback runs `onDidScroll`.
private final class Hook: ScrollViewDelegate {
    var onDidScroll: () -> Void = {}
    var calls = 0
    func scrollViewDidScroll(_ scrollView: ScrollView) {
        calls += 1
        onDidScroll()
    }
}

/// A target that runs `onDeinit` when it is freed.
private final class DeinitHook: ScrollViewDelegate {
    var onDeinit: () -> Void = {}
    func scrollViewDidScroll(_ scrollView: ScrollView) {}
    deinit { onDeinit() }
}

/// The strategies that pin a buffer for a dispatch.
enum Pinning: String, CaseIterable, Sendable {
    case existentialArray, lifetimeBound, weakArray, closureTable, selectorDictionary

    func make() -> any ScrollViewMultiplexer { DispatchStrategy(rawValue: rawValue)!.makeMultiplexer() }

    /// How many buffers `multiplexer` keeps retired now.
    func retired(_ multiplexer: any ScrollViewMultiplexer) -> Int {
        switch self {
        case .existentialArray: (multiplexer as! ExistentialArrayMultiplexer<ScrollViewSchema>).core.table.registrations.retired.count
        case .lifetimeBound: (multiplexer as! LifetimeBoundMultiplexer<ScrollViewSchema>).core.table.registrations.retired.count
        case .weakArray: (multiplexer as! WeakArrayMultiplexer<ScrollViewSchema>).core.table.registrations.retired.count
        case .closureTable:
            Self.didScrollList((multiplexer as! ClosureTableMultiplexer<ScrollViewSchema>).core.lists[ScrollViewSchema.didScroll.key.ordinal])
        case .selectorDictionary:
            Self.didScrollList((multiplexer as! SelectorDictionaryMultiplexer<ScrollViewSchema>).handlers(for: ScrollViewSchema.didScroll.key)?.takeUnretainedValue())
        }
    }

    /// How many buffers the responder list of `scrollViewDidScroll(_:)` keeps retired.
    private static func didScrollList(_ list: AnyResponderList?) -> Int {
        (list as! ResponderList<any ScrollViewDelegate>).pinned.retired.count
    }
}

@Suite("A dispatch's pinned buffer")
struct RegistrationTableTests {
    @Test("a target removed by another target's callback is called, kept alive through its call, and freed after the dispatch",
          arguments: Pinning.allCases)
    func removedByAnotherCallback(_ pinning: Pinning) {
        let multiplexer = pinning.make()
        let first = Hook()
        weak var second: Hook?
        var aliveDuringItsCall = false
        do {
            let target = Hook()
            second = target
            multiplexer.add(first)
            multiplexer.add(target)
            // lifetimeBound and weakArray hold a plain target weakly: the test keeps it until the callback lets go.
            var keeper: Hook? = target
            first.onDidScroll = { [unowned multiplexer] in
                if let target = second { multiplexer.remove(target) }
                keeper = nil
            }
            target.onDidScroll = { aliveDuringItsCall = second != nil }
            withExtendedLifetime(keeper) {}
        }
        multiplexer.scrollViewDidScroll(ScrollView())
        if pinning != .lifetimeBound && pinning != .weakArray {
            // Held strongly: delivered in the dispatch that began with it, alive through its call.
            #expect(aliveDuringItsCall)
        }
        #expect(second == nil, "the retired buffer outlived the dispatch")
        #expect(pinning.retired(multiplexer) == 0)
        #expect(multiplexer.count == 1)
    }

    @Test("many mutations during one dispatch keep one retired buffer; nested dispatches one each; none after",
          arguments: Pinning.allCases)
    func retiredBound(_ pinning: Pinning) {
        let multiplexer = pinning.make()
        let outer = Hook(), nested = Hook()
        multiplexer.add(outer)
        var retiredDuringMutations = 0, retiredNested = 0, depth = 0
        var spare: [Hook] = []
        outer.onDidScroll = { [unowned multiplexer] in
            depth += 1
            defer { depth -= 1 }
            guard depth == 1 else { return }
            for _ in 0..<100 {
                let hook = Hook()
                spare.append(hook)
                multiplexer.add(hook)
                multiplexer.remove(hook)
            }
            retiredDuringMutations = pinning.retired(multiplexer)
            // A nested dispatch over the new buffer, mutating inside it: one more retired buffer, freed when it ends.
            nested.onDidScroll = { [unowned multiplexer] in
                for hook in spare.prefix(50) { multiplexer.add(hook); multiplexer.remove(hook) }
                retiredNested = pinning.retired(multiplexer)
            }
            multiplexer.add(nested)
            multiplexer.scrollViewDidScroll(ScrollView())
            #expect(pinning.retired(multiplexer) == 1, "the nested dispatch's buffer is freed when it ends")
        }
        multiplexer.scrollViewDidScroll(ScrollView())
        #expect(retiredDuringMutations == 1)
        #expect(retiredNested == 2)
        #expect(pinning.retired(multiplexer) == 0)
        withExtendedLifetime((outer, nested, spare)) {}
    }

    @Test("a target freed with a retired buffer may dispatch from its deinit, and the callbacks of that dispatch may mutate",
          arguments: [Pinning.existentialArray, .closureTable, .selectorDictionary])
    func deinitDispatchesWhileRetiredBuffersAreFreed(_ pinning: Pinning) {
        let multiplexer = pinning.make()
        let first = Hook()
        multiplexer.add(first)
        weak var doomedReference: DeinitHook?
        var phase = 0, deinitRan = false
        let spare = Hook()
        do {
            let doomed = DeinitHook()
            doomedReference = doomed
            // Freed when the outer dispatch frees the buffer that held it: its deinit dispatches again.
            doomed.onDeinit = { [unowned multiplexer] in
                deinitRan = true
                multiplexer.scrollViewDidScroll(ScrollView())
            }
            multiplexer.add(doomed)
        }
        first.onDidScroll = { [unowned multiplexer] in
            phase += 1
            switch phase {
            case 1:
                // The outer dispatch: the only reference to `doomed` is now the retired buffer.
                if let doomed = doomedReference { multiplexer.remove(doomed) }
            case 2:
                // The dispatch from the deinit: a change while it runs retires its buffer too.
                multiplexer.add(spare)
                multiplexer.remove(spare)
            default:
                break
            }
        }
        multiplexer.scrollViewDidScroll(ScrollView())
        #expect(deinitRan)
        #expect(doomedReference == nil)
        #expect(phase == 2)
        #expect(pinning.retired(multiplexer) == 0, "a buffer was left retired")
        // The registrations are consistent: one more dispatch reaches `first` alone, and a change after it works.
        multiplexer.scrollViewDidScroll(ScrollView())
        #expect(phase == 3)
        multiplexer.add(spare)
        #expect(multiplexer.count == 2)
        #expect(pinning.retired(multiplexer) == 0)
    }
}
