@testable import Fanout
import Testing

// `PinnedArray` and the one pin operation on its owner (`beginDispatch()`, `endDispatchUnchanged()`,
// `endDispatchAfterChange()` on `Unmanaged`, which every strategy's dispatch uses), against a model: random nests of
// dispatches and changes, checked after every step.
// A dispatch keeps nothing of its own: the array counts the pins of its current buffer and of each retired one, and
// a dispatch's end unpins the current buffer or the last retired one (see the type's documentation). So these tests
// check the claims that rest on: every open dispatch's buffer stays alive and unchanged; what an ended dispatch read
// is freed once nothing else holds it; at most one buffer is retired per open dispatch; a dispatch's end answers `true`
// exactly at the end of the outermost dispatch during which something changed; and nothing is left retired or
// pinned once none is open.

/// An element that the model can watch die. Freed while its owner ends a dispatch, it checks that the buffer it
/// was in is dropped with the dispatch still counted in flight.
private final class Box {
    let value: Int
    weak var owner: Owner?

    init(_ value: Int, _ owner: Owner) {
        self.value = value
        self.owner = owner
    }

    deinit {
        if let owner, owner.isEnding {
            #expect(
                owner.pinned.hasRetired && owner.pinned.isDispatching,
                "while the handed-over buffer is dropped, the dispatch is in flight")
        }
    }
}

/// The owner of a pinned array, as a strategy or a responder list is.
private final class Owner: PinnedArrayOwner {
    var pinned = PinnedArray<Box>()
    /// Whether a dispatch's end is in progress.
    var isEnding = false

    /// Begins a dispatch, as the strategies do.
    func beginDispatch() -> UnsafeBufferPointer<Box> {
        Unmanaged.passUnretained(self).beginDispatch()
    }

    /// Ends the dispatch begun last, as the strategies do.
    func endDispatch() -> Bool {
        let owner = Unmanaged.passUnretained(self)
        isEnding = true
        defer { isEnding = false }
        if owner.endDispatchUnchanged() { return false }
        return owner.endDispatchAfterChange()
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
        let owner = Owner()
        var open: [OpenDispatch] = []
        var next = 0
        owner.pinned.modify { $0.append(contentsOf: (0..<3).map { _ in next += 1; return Box(next, owner) }) }

        for step in 0..<4_000 {
            let choice = random.next(10)
            if choice < 4 && open.count < 6 {
                let elements = owner.beginDispatch()
                open.append(OpenDispatch(
                    elements: elements, values: elements.map(\.value), watched: elements.map { Weak(box: $0) }))
            } else if choice < 7, let last = open.popLast() {
                let changedDuringOutermost = open.isEmpty && last.changed
                let told = owner.endDispatch()
                #expect(told == changedDuringOutermost, "step \(step): the end answered \(told)")
                // What the ended dispatch read and nothing else holds is freed: its buffer was freed, or is the
                // array's own, or an outer dispatch's.
                let held = Set(owner.pinned.elements.map(\.value) + open.flatMap(\.values))
                for (value, watched) in zip(last.values, last.watched) where !held.contains(value) {
                    #expect(watched.box == nil, "step \(step): element \(value) outlived every dispatch that read it")
                }
            } else if random.next(8) == 0 {
                // A change that changes nothing: a pinned buffer is retired and stays the array's own, so that a
                // later dispatch may pin and retire the same buffer again.
                owner.pinned.modify { _ in }
                for index in open.indices { open[index].changed = true }
            } else if random.next(2) == 0 {
                // A change that replaces every element, so that only retired buffers hold the old ones.
                owner.pinned.modify { elements in
                    let count = 1 + random.next(4)
                    elements = ContiguousArray((0..<count).map { _ in next += 1; return Box(next, owner) })
                }
                for index in open.indices { open[index].changed = true }
            } else {
                // A change in place: an element removed or appended, the others shared with any retired buffer.
                owner.pinned.modify { elements in
                    if elements.count > 1 && random.next(2) == 0 {
                        elements.remove(at: random.next(elements.count))
                    } else {
                        next += 1
                        elements.append(Box(next, owner))
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
            #expect(owner.pinned.retired.count <= open.count, "step \(step): \(owner.pinned.retired.count) retired, \(open.count) open")
            #expect(owner.pinned.retired.allSatisfy { $0.pins > 0 }, "step \(step): a retired buffer that nothing reads")
            #expect(owner.pinned.retired.map(\.pins).reduce(owner.pinned.pins, +) == open.count, "step \(step): pins miscounted")
            #expect(owner.pinned.isDispatching == !open.isEmpty, "step \(step)")
            #expect(owner.pinned.hasRetired == !owner.pinned.retired.isEmpty, "step \(step)")
            // The current buffer is pinned by the open dispatches begun since the last change, and only by them.
            #expect(owner.pinned.pins == open.filter { !$0.changed }.count, "step \(step)")
            #expect(owner.pinned.isIdle == open.isEmpty, "step \(step)")
            #expect(owner.pinned.isPinnedOnce == (open.count == 1 && !open[0].changed), "step \(step)")
            if open.isEmpty {
                #expect(owner.pinned.retired.isEmpty && !owner.pinned.isPinned, "step \(step): left retired or pinned")
            }
        }
        while open.popLast() != nil { _ = owner.endDispatch() }
        #expect(owner.pinned.retired.isEmpty && !owner.pinned.isPinned && !owner.pinned.isDispatching && owner.pinned.state == 0)
    }

    @Test("a buffer retired during a dispatch is freed when the last dispatch that read it ends, not before")
    func retiredFreedAtEnd() {
        let owner = Owner()
        owner.pinned.modify { $0.append(Box(1, owner)) }
        let elements = owner.beginDispatch()
        weak let first = elements[0]
        _ = owner.beginDispatch()  // nested: reads the same buffer
        #expect(owner.pinned.pins == 2)
        owner.pinned.modify { $0 = [Box(2, owner)] }
        #expect(owner.pinned.retired.count == 1 && owner.pinned.retired[0].pins == 2 && owner.pinned.pins == 0)
        let inner = owner.beginDispatch()
        weak let second = inner[0]
        owner.pinned.modify { $0 = [Box(3, owner)] }
        #expect(owner.pinned.retired.count == 2)
        #expect(owner.endDispatch() == false, "the dispatch that read the second buffer ends")
        #expect(owner.pinned.retired.count == 1 && second == nil && first != nil)
        #expect(owner.endDispatch() == false, "the nested dispatch ends; the outer one still reads the first buffer")
        #expect(owner.pinned.retired.count == 1 && owner.pinned.retired[0].pins == 1 && first != nil)
        #expect(owner.endDispatch() == true, "the last dispatch ends after a change")
        #expect(first == nil && owner.pinned.retired.isEmpty && owner.pinned.state == 0)
    }

    @Test("with no change, a dispatch and any nested in it end by unpinning, the outermost finding one pin")
    func unchangedNests() {
        let owner = Owner()
        owner.pinned.modify { $0.append(Box(1, owner)) }
        #expect(owner.pinned.isIdle)
        _ = owner.beginDispatch()
        #expect(owner.pinned.isPinnedOnce)
        _ = owner.beginDispatch()
        #expect(!owner.pinned.isPinnedOnce && owner.pinned.pins == 2)
        #expect(owner.endDispatch() == false)
        #expect(owner.pinned.isPinnedOnce)
        #expect(owner.endDispatch() == false)
        #expect(owner.pinned.isIdle && owner.pinned.retired.isEmpty)
    }
}
