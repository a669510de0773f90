@testable import Fanout
import Testing

// `PinnedArray` on its own, against a model: random nests of dispatches and changes, checked after every step.
// A dispatch keeps only a flag in the array (`isPinned`) and frees at most the one buffer it pinned
// (`releaseRetired()`), so these tests check the claims that rest on: every open dispatch's buffer stays alive and
// unchanged; what an ended dispatch read is freed once nothing else holds it; at most one buffer is retired per open
// dispatch; `endDispatch` answers `true` exactly at the end of the outermost dispatch during which something changed;
// and nothing is left retired once none is open. (Debug builds also check, at each end that frees a buffer, that it
// is the one the dispatch retired.)

/// An element that the model can watch die.
private final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// A dispatch in flight, as the model sees it.
private struct OpenDispatch {
    let elements: UnsafeBufferPointer<Box>
    let token: DispatchToken
    /// The values and weak references of its buffer when it began.
    let values: [Int]
    let watched: [Weak]
    /// Whether a change was made while it was in flight.
    var changed = false
}

private struct Weak {
    weak var box: Box?
}

/// A deterministic generator (SplitMix64), so that a failure reproduces.
private struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

@Suite("PinnedArray: dispatches nested at random, and changes among them, against a model")
struct PinnedArrayTests {
    @Test("buffers live while pinned and are freed after; one retired per open dispatch; the last end tells",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomNests(seed: UInt64) {
        var random = SplitMix(state: seed)
        var array = PinnedArray<Box>()
        var open: [OpenDispatch] = []
        var next = 0
        array.modify { $0.append(contentsOf: (0..<3).map { _ in next += 1; return Box(next) }) }

        for step in 0..<4_000 {
            let choice = random.next(10)
            if choice < 4 && open.count < 6 {
                let wasPinned = Self.pinned(open)
                let (elements, token) = array.beginDispatch()
                #expect(token.isNested == wasPinned, "step \(step): nested only inside a dispatch whose buffer is pinned")
                open.append(OpenDispatch(
                    elements: elements, token: token, values: elements.map(\.value),
                    watched: elements.map { Weak(box: $0) }))
            } else if choice < 7, let last = open.popLast() {
                let changedDuringOutermost = open.isEmpty && last.changed
                let told = array.endDispatch(last.token)
                #expect(told == changedDuringOutermost, "step \(step): endDispatch answered \(told)")
                // What the ended dispatch read and nothing else holds is freed: its buffer was freed, or is the
                // array's own, or an outer dispatch's.
                let held = Set(array.elements.map(\.value) + open.flatMap(\.values))
                for (value, watched) in zip(last.values, last.watched) where !held.contains(value) {
                    #expect(watched.box == nil, "step \(step): element \(value) outlived every dispatch that read it")
                }
            } else if random.next(2) == 0 {
                // A change that replaces every element, so that only retired buffers hold the old ones.
                array.modify { elements in
                    let count = 1 + random.next(4)
                    elements = ContiguousArray((0..<count).map { _ in next += 1; return Box(next) })
                }
                for index in open.indices { open[index].changed = true }
            } else {
                // A change in place: an element removed or appended, the others shared with any retired buffer.
                array.modify { elements in
                    if elements.count > 1 && random.next(2) == 0 {
                        elements.remove(at: random.next(elements.count))
                    } else {
                        next += 1
                        elements.append(Box(next))
                    }
                }
                for index in open.indices { open[index].changed = true }
            }

            // Every open dispatch still reads its buffer as it began (its elements alive first, then their values).
            for dispatch in open {
                let alive = dispatch.watched.allSatisfy { $0.box != nil }
                #expect(alive, "step \(step): a pinned buffer was freed")
                if alive {
                    #expect(dispatch.elements.map(\.value) == dispatch.values, "step \(step): a pinned buffer changed")
                }
            }
            // At most one retired buffer per open dispatch that pinned one itself.
            let pinning = open.filter { !$0.token.isNested }.count
            #expect(array.retired.count <= pinning, "step \(step): \(array.retired.count) retired, \(pinning) open")
            #expect(array.isDispatching == !open.isEmpty, "step \(step)")
            #expect(array.hasRetired == !array.retired.isEmpty, "step \(step)")
            #expect(array.isPinned == Self.pinned(open), "step \(step)")
            if open.isEmpty {
                #expect(array.retired.isEmpty && !array.isPinned, "step \(step): left retired or pinned")
            }
        }
        while let last = open.popLast() { _ = array.endDispatch(last.token) }
        #expect(array.retired.isEmpty && !array.isPinned && !array.isDispatching)
    }

    /// Whether the model expects the buffer pinned: the innermost open dispatch that pinned a buffer itself made no
    /// change since (the first change retires and unpins it).
    private static func pinned(_ open: [OpenDispatch]) -> Bool {
        guard let pinner = open.last(where: { !$0.token.isNested }) else { return false }
        return !pinner.changed
    }

    @Test("a buffer retired during a dispatch is freed when that dispatch ends, not before")
    func retiredFreedAtEnd() {
        var array = PinnedArray<Box>()
        array.modify { $0.append(Box(1)) }
        let (elements, outer) = array.beginDispatch()
        weak var first = elements[0]
        array.modify { $0 = [Box(2)] }
        let (_, inner) = array.beginDispatch()
        #expect(!inner.isNested, "the buffer was retired, so the inner dispatch pins the new one")
        array.modify { $0 = [Box(3)] }
        #expect(array.retired.count == 2)
        #expect(array.endDispatch(inner) == false, "an outer dispatch is still in flight")
        #expect(array.retired.count == 1 && first != nil)
        #expect(array.endDispatch(outer) == true, "the last dispatch ends after a change")
        #expect(first == nil && array.retired.isEmpty)
    }
}
