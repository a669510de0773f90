import Fanout
import FanoutScrollViewKit
import Testing

/// One delivery seen by a probe.
struct Delivery: Equatable, CustomStringConvertible {
    var target: Int
    var message: ScrollViewMessage
    var detail: String = ""

    var description: String { "\(target).\(message)\(detail.isEmpty ? "" : "(\(detail))")" }
}

/// A shared, ordered record of deliveries and deallocations.
final class Log {
    var deliveries: [Delivery] = []
    var deallocated: [Int] = []
    /// Targets deallocated while one of their own callbacks was on the stack:
    /// a use-after-free in the making, whatever happens next.
    var freedInsideOwnCallback: [Int] = []

    func targets(of message: ScrollViewMessage) -> [Int] {
        deliveries.filter { $0.message == message }.map(\.target)
    }
}

/// An instrumented target: records every message with its arguments, answers
/// as configured, can run a hook inside a callback (to mutate the multiplexer
/// or send another message), and records its own deallocation.
class Probe: ScrollViewDelegate {
    let id: Int
    let log: Log
    var responders: Set<ScrollViewMessage>
    var scrollToTopAnswer = true
    var zoomAnswer: AnyObject?
    /// Runs inside `scrollViewDidScroll(_:)` after the delivery is recorded.
    var onDidScroll: ((Probe) -> Void)?
    /// Runs inside `scrollViewDidEndDragging(_:willDecelerate:)` after the delivery is recorded.
    var onDidEndDragging: ((Probe) -> Void)?
    /// How many of this probe's callbacks are on the stack.
    private(set) var callDepth = 0

    init(_ id: Int, log: Log, responders: Set<ScrollViewMessage> = Set(ScrollViewMessage.allCases)) {
        self.id = id
        self.log = log
        self.responders = responders
    }

    deinit {
        if callDepth > 0 { log.freedInsideOwnCallback.append(id) }
        log.deallocated.append(id)
    }

    func responds(to message: ScrollViewMessage) -> Bool { responders.contains(message) }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        callDepth += 1
        defer { callDepth -= 1 }
        log.deliveries.append(Delivery(target: id, message: .didScroll, detail: "\(scrollView.contentOffset)"))
        onDidScroll?(self)
    }

    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        callDepth += 1
        defer { callDepth -= 1 }
        log.deliveries.append(Delivery(target: id, message: .didEndDragging, detail: "\(decelerate)"))
        onDidEndDragging?(self)
    }

    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        log.deliveries.append(Delivery(target: id, message: .shouldScrollToTop))
        return scrollToTopAnswer
    }

    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        log.deliveries.append(Delivery(target: id, message: .viewForZooming))
        return zoomAnswer
    }

    /// Records the velocity and the offset it was given, then adds its id to the offset, so that each target's
    /// record shows what the ones before it wrote.
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        log.deliveries.append(
            Delivery(target: id, message: .willEndDragging, detail: "\(velocity) \(targetContentOffset.pointee)"))
        targetContentOffset.pointee += Double(id)
    }
}

/// A target that implements nothing and relies on every default.
final class SilentTarget: ScrollViewDelegate {}

/// A multiplexer of `strategy` holding probes `0 ..< count`, which it returns
/// so the caller keeps them alive.
func makeProbes(
    _ count: Int, in multiplexer: any ScrollViewMultiplexer, log: Log,
    responders: (Int) -> Set<ScrollViewMessage> = { _ in Set(ScrollViewMessage.allCases) }
) -> [Probe] {
    (0..<count).map { id in
        let probe = Probe(id, log: log, responders: responders(id))
        multiplexer.add(probe)
        return probe
    }
}

/// Checks that `log` saw `expected` deliveries of `message`, in order.
func expectDeliveries(
    _ log: Log, _ message: ScrollViewMessage, _ expected: [Int],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(log.targets(of: message) == expected, sourceLocation: sourceLocation)
}

/// A probe that binds its registrations to its own lifetime.
final class BoundProbe: Probe, RegistrationHolder {
    let registrations = RegistrationBag()
}

/// Which kind of target a weak-semantics check uses.
enum TargetKind: String, CaseIterable, Sendable {
    /// A plain target: held through a weak reference.
    case plain
    /// A `RegistrationHolder`: bound to its lifetime by `lifetimeBound`.
    case holder

    func make(_ id: Int, log: Log, responders: Set<ScrollViewMessage> = Set(ScrollViewMessage.allCases)) -> Probe {
        switch self {
        case .plain: Probe(id, log: log, responders: responders)
        case .holder: BoundProbe(id, log: log, responders: responders)
        }
    }
}
