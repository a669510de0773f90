import Dispatch
import Fanout
import FanoutScrollViewKit
import Foundation
import Testing

/// A target safe to call from several threads: it counts deliveries atomically.
final class AtomicCounter: ScrollViewDelegate, Sendable {
    let deliveries = SharedCount()

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        deliveries.add(1)
    }
}

/// A count shared between threads, under a lock (Foundation's: the tests,
/// like the library, use nothing that needs macOS 15 or iOS 18).
final class SharedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    init() {}

    func add(_ value: Int) { lock.withLock { count += value } }

    var value: Int { lock.withLock { count } }
}

/// Runs `body` for indices `0 ..< count` on that many threads at once.
private func onThreads(_ count: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}

/// `ScrollView` is not `Sendable`; the targets here never read it.
private struct SharedView: @unchecked Sendable {
    let view = ScrollView()
}

/// A schema no other test uses, so that its forwarding table is first built here.
private protocol PingObserver: AnyObject { func ping() }
private enum PingMessage: String, MessageKey { case ping = "ping" }
private enum PingSchema: DelegateSchema {
    typealias Target = any PingObserver
    typealias Key = PingMessage
    static var ping: Message<Self, Void, Void> { .init(.ping) { $0.ping() } }
    static var messages: [any MessageProtocol<Self>] { [ping] }
}

@Suite("ConcurrentMultiplexer under contention")
struct ConcurrentStressTests {
    /// Every `SelectorDictionaryMultiplexer` of a schema shares one forwarding
    /// table, built by the first and found under a lock by the others. What
    /// this checks is under ThreadSanitizer (the `.ci/run` step), whose view
    /// of the lock depends on annotations: without them, it reported a race
    /// here and failed the step; in other builds it checks only that every
    /// `forward` finds the selector.
    @Test("multiplexers of one schema made and forwarded to on several threads at once")
    func forwardingTableFromThreads() {
        let forwarded = SharedCount()
        onThreads(4) { _ in
            for _ in 0..<50 {
                // No target: `forward` finds the selector and answers with no answers.
                let answers = try? SelectorDictionaryMultiplexer<PingSchema>().forward("ping", arguments: [])
                if answers?.isEmpty == true { forwarded.add(1) }
            }
        }
        #expect(forwarded.value == 200)
    }

    @Test("2 dispatching and 2 mutating threads, 100 000 messages: permanent targets get every message once")
    func dispatchWhileMutating() {
        // Shared although `any ScrollViewDelegate` is not `Sendable`: its targets here are safe on any thread.
        nonisolated(unsafe) let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()
        let permanent = (0..<4).map { _ in AtomicCounter() }
        for target in permanent { multiplexer.add(target) }
        let messagesPerThread = 50_000
        let shared = SharedView()
        let dispatchersDone = SharedCount()
        let mutations = SharedCount()
        onThreads(4) { thread in
            if thread < 2 {
                for _ in 0..<messagesPerThread { multiplexer.scrollViewDidScroll(shared.view) }
                dispatchersDone.add(1)
            } else {
                // Churn: add and remove transient targets until both dispatchers finish.
                repeat {
                    let transient = (0..<3).map { _ in AtomicCounter() }
                    for target in transient { multiplexer.add(target) }
                    _ = multiplexer.count
                    for target in transient { multiplexer.remove(target) }
                    mutations.add(1)
                } while dispatchersDone.value < 2
            }
        }
        for target in permanent {
            #expect(target.deliveries.value == 2 * messagesPerThread)
        }
        #expect(multiplexer.count == permanent.count)
        #expect(mutations.value > 0)
    }

    @Test("dispatching from several threads while a callback mutates the multiplexer")
    func mutationFromCallbacks() {
        nonisolated(unsafe) let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()  // as above
        let counter = AtomicCounter()
        let churn = ChurningTarget(multiplexer)
        multiplexer.add(counter)
        multiplexer.add(churn)
        let shared = SharedView()
        onThreads(2) { _ in
            for _ in 0..<10_000 { multiplexer.scrollViewDidScroll(shared.view) }
        }
        #expect(counter.deliveries.value == 20_000)
        #expect(multiplexer.count == 2)
        multiplexer.remove(churn)  // the churning target holds the multiplexer: break the cycle
    }
}

/// A target that adds and removes another target from inside its callback.
final class ChurningTarget: ScrollViewDelegate, Sendable {
    nonisolated(unsafe) let multiplexer: ConcurrentMultiplexer<ScrollViewSchema>

    init(_ multiplexer: ConcurrentMultiplexer<ScrollViewSchema>) { self.multiplexer = multiplexer }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        let transient = AtomicCounter()
        multiplexer.add(transient)
        multiplexer.remove(transient)
    }
}

/// A target that removes itself from `multiplexer` in its callback and records that it ran.
private final class SelfRemoving: ScrollViewDelegate, @unchecked Sendable {
    weak var multiplexer: ConcurrentMultiplexer<ScrollViewSchema>?
    var calls = 0

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        calls += 1
        multiplexer?.remove(self)
    }
}

@Suite("ConcurrentMultiplexer's published snapshots")
struct ConcurrentSnapshotTests {
    @Test("a snapshot replaced during a dispatch keeps its targets until the dispatch ends, then is freed")
    func retiredSnapshotFreedAfterDispatch() {
        let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()
        weak var released: SelfRemoving?
        do {
            let target = SelfRemoving()
            target.multiplexer = multiplexer
            multiplexer.add(target)
            released = target
        }
        // Only the multiplexer's snapshot holds the target now.
        #expect(released != nil)
        multiplexer.scrollViewDidScroll(ScrollView())
        // The callback removed it: the snapshot it was called from was retired and kept it alive through the call,
        // and the last reader out freed that snapshot.
        #expect(released == nil)
        #expect(multiplexer.count == 0)
    }

    @Test("snapshots retired while other threads dispatch are all freed once none is in flight")
    func retiredSnapshotsFreedAfterContention() {
        nonisolated(unsafe) let multiplexer = ConcurrentMultiplexer<ScrollViewSchema>()  // as above
        let view = SharedView()
        weak var lastTransient: AtomicCounter?
        onThreads(3) { thread in
            if thread == 0 {
                for _ in 0..<2_000 {
                    let transient = AtomicCounter()
                    multiplexer.add(transient)
                    multiplexer.remove(transient)
                }
            } else {
                for _ in 0..<20_000 { multiplexer.scrollViewDidScroll(view.view) }
            }
        }
        do {
            let transient = AtomicCounter()
            multiplexer.add(transient)
            multiplexer.remove(transient)
            lastTransient = transient
        }
        // No dispatch is in flight: the remove above found no reader and freed every retired snapshot.
        #expect(lastTransient == nil)
        #expect(multiplexer.count == 0)
    }
}
