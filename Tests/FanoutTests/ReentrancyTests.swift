import Fanout
import FanoutScrollViewKit
import Foundation
import Testing

/// What a target's `responds(to:)` does to the multiplexer it is being added to.
enum RespondsAction: String, CaseIterable, Sendable {
    case readsCount, readsResponds, addsAnother, removesAnother, addsItself, removesItself
}

/// A target whose `responds(to:)` calls the multiplexer it is being added to,
/// the first time it is asked.
final class Introspector: Probe {
    var action: ((Introspector) -> Void)?

    override func responds(to message: ScrollViewMessage) -> Bool {
        if let action {
            self.action = nil
            action(self)
        }
        return super.responds(to: message)
    }
}

enum ReentrancyScenario {
    /// Adds an ``Introspector`` (target 1) to a multiplexer holding target 0;
    /// its `responds(to:)` does `action` to the multiplexer; then checks what
    /// it saw and what got registered.
    static func run(strategy: DispatchStrategy, action: RespondsAction) {
        let log = Log(), view = ScrollView()
        let multiplexer = strategy.makeMultiplexer()
        let first = Probe(0, log: log), other = Probe(2, log: log)
        multiplexer.add(first)
        let introspector = Introspector(1, log: log)
        var seenCount: Int?
        var seenResponds: Bool?
        introspector.action = { [unowned multiplexer] introspector in
            switch action {
            case .readsCount: seenCount = multiplexer.count
            case .readsResponds: seenResponds = multiplexer.responds(to: .didScroll)
            case .addsAnother: multiplexer.add(other)
            case .removesAnother: multiplexer.remove(first)
            case .addsItself: multiplexer.add(introspector)
            case .removesItself: multiplexer.remove(introspector)
            }
        }
        multiplexer.add(introspector)
        multiplexer.scrollViewDidScroll(view)
        let expected: [Int] = switch action {
        case .readsCount, .readsResponds, .addsItself, .removesItself: [0, 1]
        case .addsAnother: [0, 2, 1]
        case .removesAnother: [1]
        }
        precondition(log.targets(of: .didScroll) == expected, "delivered to \(log.targets(of: .didScroll))")
        precondition(multiplexer.count == expected.count, "count \(multiplexer.count)")
        if action == .readsCount { precondition(seenCount == 1, "responds(to:) saw count \(String(describing: seenCount))") }
        if action == .readsResponds { precondition(seenResponds == true) }
        for probe in [first, introspector, other] { multiplexer.remove(probe) }
    }
}

@Suite("Re-entrancy: responds(to:) may call the multiplexer it is being added to")
struct ReentrancyTests {
    static let arguments = DispatchStrategy.allCases.flatMap { strategy in
        RespondsAction.allCases.map { (strategy, $0) }
    }

    @Test("responds(to:) reads or changes the multiplexer during add", arguments: arguments)
    func respondsCallsTheMultiplexer(strategy: DispatchStrategy, action: RespondsAction) async {
        await #expect(processExitsWith: .success) {
            [strategy = strategy.rawValue as String, action = action.rawValue as String] in
            ReentrancyScenario.run(strategy: DispatchStrategy(rawValue: strategy)!, action: RespondsAction(rawValue: action)!)
        }
    }

    #if DEBUG
    static let singleThreaded = DispatchStrategy.allCases.filter { $0 != .concurrent }

    @Test("a single-threaded multiplexer called from a second thread during a dispatch traps, naming concurrent (debug)",
          arguments: singleThreaded)
    func secondThreadDuringDispatch(strategy: DispatchStrategy) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [strategy = strategy.rawValue as String] in
            let multiplexer = DispatchStrategy(rawValue: strategy)!.makeMultiplexer()
            let probe = Probe(0, log: Log())
            probe.onDidScroll = { [unowned multiplexer] _ in
                onAnotherThread { multiplexer.add(Probe(1, log: Log())) }
            }
            multiplexer.add(probe)
            multiplexer.scrollViewDidScroll(ScrollView())
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("single-threaded. Share a ConcurrentMultiplexer"), "\(message)")
    }

    @Test("a single-threaded multiplexer called from a second thread during an add traps (debug)",
          arguments: singleThreaded)
    func secondThreadDuringAdd(strategy: DispatchStrategy) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [strategy = strategy.rawValue as String] in
            let multiplexer = DispatchStrategy(rawValue: strategy)!.makeMultiplexer()
            let introspector = Introspector(0, log: Log())
            introspector.action = { [unowned multiplexer] _ in
                onAnotherThread { multiplexer.scrollViewDidScroll(ScrollView()) }
            }
            multiplexer.add(introspector)
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("ConcurrentMultiplexer"), "\(message)")
    }
    #endif

    @Test("one thread after another is fine: the check is about overlapping calls", arguments: DispatchStrategy.allCases)
    func threadsTakingTurns(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(), log = Log()
        let probe = Probe(0, log: log)
        multiplexer.add(probe)
        nonisolated(unsafe) let shared = multiplexer
        onAnotherThread { shared.scrollViewDidScroll(ScrollView()) }
        multiplexer.scrollViewDidScroll(ScrollView())
        expectDeliveries(log, .didScroll, [0, 0])
    }
}

/// Runs `body` on a new thread and waits for it.
func onAnotherThread(_ body: @escaping () -> Void) {
    nonisolated(unsafe) let body = body
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}
