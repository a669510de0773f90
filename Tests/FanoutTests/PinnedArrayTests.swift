@testable import Fanout
import Testing

// `PinnedArray` on its own, against a model: random nests of dispatches and changes, checked after every step.
// A dispatch keeps nothing of its own: the array counts the pins of its current buffer and of each retired one, and
// a dispatch's end unpins the current buffer or the last retired one (see the type's documentation). So these tests
// check the claims that rest on: every open dispatch's buffer stays alive and unchanged; what an ended dispatch read
// is freed once nothing else holds it; at most one buffer is retired per open dispatch; `endDispatch` answers `true`
// exactly at the end of the outermost dispatch during which something changed; and nothing is left retired or
// pinned once none is open.

/// An element that the model can watch die.
private final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
}

extension PinnedArray {
    /// Ends the dispatch begun last as the storages do: a buffer handed over is dropped outside the array's access,
    /// then the end finished.
    mutating func endDispatchDroppingFreed() -> Bool {
        switch endDispatch() {
        case .ended(let wasLast):
            return wasLast
        case .released(let buffer):
            #expect(hasRetired && isDispatching, "while the handed-over buffer is dropped, the dispatch is in flight")
            _ = consume buffer
            return endRelease()
        }
    }
}

/// A dispatch in flight, as the model sees it.
private struct OpenDispatch {
    let elements: UnsafeBufferPointer<Box>
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
                let elements = array.beginDispatch()
                open.append(OpenDispatch(
                    elements: elements, values: elements.map(\.value), watched: elements.map { Weak(box: $0) }))
            } else if choice < 7, let last = open.popLast() {
                let changedDuringOutermost = open.isEmpty && last.changed
                let told = array.endDispatchDroppingFreed()
                #expect(told == changedDuringOutermost, "step \(step): endDispatch answered \(told)")
                // What the ended dispatch read and nothing else holds is freed: its buffer was freed, or is the
                // array's own, or an outer dispatch's.
                let held = Set(array.elements.map(\.value) + open.flatMap(\.values))
                for (value, watched) in zip(last.values, last.watched) where !held.contains(value) {
                    #expect(watched.box == nil, "step \(step): element \(value) outlived every dispatch that read it")
                }
            } else if random.next(8) == 0 {
                // A change that changes nothing: a pinned buffer is retired and stays the array's own, so that a
                // later dispatch may pin and retire the same buffer again.
                array.modify { _ in }
                for index in open.indices { open[index].changed = true }
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
            // At most one retired buffer per open dispatch, each pinned by the open dispatches that read it.
            #expect(array.retired.count <= open.count, "step \(step): \(array.retired.count) retired, \(open.count) open")
            #expect(array.retired.allSatisfy { $0.pins > 0 }, "step \(step): a retired buffer that nothing reads")
            #expect(array.retired.map(\.pins).reduce(array.pins, +) == open.count, "step \(step): pins miscounted")
            #expect(array.isDispatching == !open.isEmpty, "step \(step)")
            #expect(array.hasRetired == !array.retired.isEmpty, "step \(step)")
            // The current buffer is pinned by the open dispatches begun since the last change, and only by them.
            #expect(array.pins == open.filter { !$0.changed }.count, "step \(step)")
            #expect(array.isIdle == open.isEmpty, "step \(step)")
            #expect(array.isPinnedOnce == (open.count == 1 && !open[0].changed), "step \(step)")
            if open.isEmpty {
                #expect(array.retired.isEmpty && !array.isPinned, "step \(step): left retired or pinned")
            }
        }
        while open.popLast() != nil { _ = array.endDispatchDroppingFreed() }
        #expect(array.retired.isEmpty && !array.isPinned && !array.isDispatching && array.state == 0)
    }

    @Test("a buffer retired during a dispatch is freed when the last dispatch that read it ends, not before")
    func retiredFreedAtEnd() {
        var array = PinnedArray<Box>()
        array.modify { $0.append(Box(1)) }
        let elements = array.beginDispatch()
        weak let first = elements[0]
        _ = array.beginDispatch()  // nested: reads the same buffer
        #expect(array.pins == 2)
        array.modify { $0 = [Box(2)] }
        #expect(array.retired.count == 1 && array.retired[0].pins == 2 && array.pins == 0)
        let inner = array.beginDispatch()
        weak let second = inner[0]
        array.modify { $0 = [Box(3)] }
        #expect(array.retired.count == 2)
        #expect(array.endDispatchDroppingFreed() == false, "the dispatch that read the second buffer ends")
        #expect(array.retired.count == 1 && second == nil && first != nil)
        #expect(array.endDispatchDroppingFreed() == false, "the nested dispatch ends; the outer one still reads the first buffer")
        #expect(array.retired.count == 1 && array.retired[0].pins == 1 && first != nil)
        #expect(array.endDispatchDroppingFreed() == true, "the last dispatch ends after a change")
        #expect(first == nil && array.retired.isEmpty && array.state == 0)
    }

    @Test("with no change, a dispatch and any nested in it end by unpinning, the outermost finding one pin")
    func unchangedNests() {
        var array = PinnedArray<Box>()
        array.modify { $0.append(Box(1)) }
        #expect(array.isIdle)
        _ = array.beginDispatch()
        #expect(array.isPinnedOnce)
        _ = array.beginDispatch()
        #expect(!array.isPinnedOnce && array.pins == 2)
        #expect(array.endDispatchDroppingFreed() == false)
        #expect(array.isPinnedOnce)
        #expect(array.endDispatchDroppingFreed() == false)
        #expect(array.isIdle && array.retired.isEmpty)
    }
}
