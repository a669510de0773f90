import Fanout
import FanoutStatic
import FanoutScrollViewKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A target's deinit may call back into the multiplexer that frees it: the library runs no user code while it holds a
// lock or while an access to its own state is open (Documentation/WritingAStrategy.md, "No user code inside").
//
// The matrix: every place where a multiplexer releases a target (`ReleasePoint`), for every strategy, crossed with
// what the dying target's deinit does through a weak reference to its multiplexer (`DeinitAction`). Each strategy and
// release point runs in a child process of its own with an alarm, so a deadlock fails its cell in seconds (the child
// dies of SIGALRM) instead of hanging the run. Afterwards: no hang, no trap, the other targets still receive every
// message, the dead one none.
//
// Cells that do not apply, and why (`ReleasePoint.notApplicable(to:)`):
// - weakArray holds its targets weakly: no `remove`, dispatch end or deinit of its own releases the last reference
//   to one, so only the weak owner's row applies to it;
// - a weak owner dropping its target frees nothing in the strategies that hold their targets strongly;
// - only lifetimeBound binds a target to an owner;
// - a static composition has no `add` or `remove` and releases its elements in its deinit only, where a weak
//   reference to it reads `nil`: its one cell is `staticCompositionDeinit` below.

/// Where the multiplexer releases the dying target.
enum ReleasePoint: String, CaseIterable, Codable, Sendable {
    /// `remove` outside any dispatch.
    case removeOutsideDispatch
    /// `remove` by a callback; freed when the dispatch ends.
    case removeInsideDispatch
    /// Added during a dispatch and removed during a dispatch nested in it: freed when the nested one ends (the
    /// pinned strategies) or when the outer one ends (`concurrent`).
    case nestedDispatchEnd
    /// The multiplexer's own deinit: the dying target's weak reference to it reads `nil`.
    case multiplexerDeinit
    /// The app drops the last reference to a weakly held target during a dispatch.
    case weakOwnerDropsDuringDispatch
    /// The app drops the last reference to a ``RegistrationHolder`` bound to its own lifetime during a dispatch: its
    /// bag ends its registration after its deinit.
    case holderDropsDuringDispatch
    /// The owner of a target bound to it dies during a dispatch; freed when the dispatch ends.
    case boundOwnerDiesDuringDispatch

    /// Why the cell of `strategy` does not apply, or `nil` when it does.
    func notApplicable(to strategy: DispatchStrategy) -> String? {
        switch self {
        case .weakOwnerDropsDuringDispatch where strategy.holdsTargetsStrongly:
            "\(strategy) holds its targets: the app's release frees nothing"
        case .boundOwnerDiesDuringDispatch where strategy != .lifetimeBound,
            .holderDropsDuringDispatch where strategy != .lifetimeBound:
            "only lifetimeBound binds a target to an owner"
        case .removeOutsideDispatch, .removeInsideDispatch, .nestedDispatchEnd, .multiplexerDeinit:
            strategy == .weakArray ? "weakArray never holds the last reference to a target" : nil
        default:
            nil
        }
    }

    /// The cells that apply.
    static var cells: [(DispatchStrategy, ReleasePoint)] {
        DispatchStrategy.allCases.flatMap { strategy in
            allCases.filter { $0.notApplicable(to: strategy) == nil }.map { (strategy, $0) }
        }
    }
}

/// What the dying target's deinit does through its weak reference to the multiplexer.
enum DeinitAction: String, CaseIterable, Sendable {
    case removeItself, addAnother, removeAnother, sendMessage, readState
}

/// What a dying target's deinit saw.
final class DeinitReport {
    var runs = 0
    var sawNoMultiplexer = false
    var messagesSent = 0
    var count: Int?
    var respondsToDidScroll: Bool?
    /// How many deliveries the log held when the deinit began.
    var deliveriesAtDeinit: Int?
}

/// A probe whose deinit performs `action` on its multiplexer, through a weak reference.
class CallingBackProbe: Probe {
    weak var multiplexer: (any ScrollViewMultiplexer)?
    let action: DeinitAction
    /// The target that `addAnother` adds and `removeAnother` removes.
    let another: Probe
    let report: DeinitReport

    init(_ id: Int, log: Log, action: DeinitAction, another: Probe, report: DeinitReport) {
        self.action = action
        self.another = another
        self.report = report
        super.init(id, log: log)
    }

    deinit {
        report.runs += 1
        report.deliveriesAtDeinit = log.deliveries.count
        guard let multiplexer else {
            report.sawNoMultiplexer = true
            return
        }
        switch action {
        case .removeItself: multiplexer.remove(self)
        case .addAnother: multiplexer.add(another)
        case .removeAnother: multiplexer.remove(another)
        case .sendMessage:
            report.messagesSent += 1
            multiplexer.scrollViewDidScroll(ScrollView())
        case .readState:
            report.count = multiplexer.count
            report.respondsToDidScroll = multiplexer.responds(to: .didScroll)
        }
    }
}

/// A dying target that lifetimeBound binds to its own lifetime.
final class CallingBackHolder: CallingBackProbe, RegistrationHolder {
    let registrations = RegistrationBag()
}

/// An owner whose bag ends the registrations bound to it.
final class BagOwner: RegistrationHolder {
    let registrations = RegistrationBag()
}

/// One cell of the matrix for one action: the failures it found.
@inline(never)
func deinitCallbackFailures(_ strategy: DispatchStrategy, _ point: ReleasePoint, _ action: DeinitAction) -> [String] {
    var failures: [String] = []
    func check(_ condition: Bool, _ what: String) {
        if !condition { failures.append("\(strategy) × \(point) × \(action): \(what)") }
    }
    let log = Log(), report = DeinitReport(), view = ScrollView()
    let first = Probe(0, log: log), other = Probe(2, log: log), spare = Probe(3, log: log)
    var owner: BagOwner? = BagOwner()
    var multiplexer: (any ScrollViewMultiplexer)? = strategy.makeMultiplexer()
    var sent = 0
    // Sends `didScroll` through the multiplexer, if it is still there.
    func scroll() {
        guard let multiplexer else { return }
        sent += 1
        multiplexer.scrollViewDidScroll(view)
    }
    let another = action == .addAnother ? spare : other
    var dying: CallingBackProbe? =
        point == .holderDropsDuringDispatch
        ? CallingBackHolder(1, log: log, action: action, another: another, report: report)
        : CallingBackProbe(1, log: log, action: action, another: another, report: report)
    weak let dyingReference = dying
    dying?.multiplexer = multiplexer
    // Registers the dying target: bound to `owner` in lifetimeBound's strong rows, as it is otherwise.
    func registerDying() {
        guard let multiplexer, let target = dying else { return }
        if strategy == .lifetimeBound && point != .weakOwnerDropsDuringDispatch && point != .holderDropsDuringDispatch,
            let owner
        {
            (multiplexer as! LifetimeBoundMultiplexer<ScrollViewSchema>).add(target, boundTo: owner)
        } else {
            multiplexer.add(target)
        }
    }

    multiplexer?.add(first)
    if point != .nestedDispatchEnd { registerDying() }
    multiplexer?.add(other)
    switch point {
    case .removeOutsideDispatch:
        if let target = dying { multiplexer?.remove(target) }
        dying = nil
    case .removeInsideDispatch:
        first.onDidScroll = { probe in
            probe.onDidScroll = nil
            if let target = dying { multiplexer?.remove(target) }
            dying = nil
        }
        scroll()
    case .nestedDispatchEnd:
        var depth = 0
        first.onDidScroll = { probe in
            depth += 1
            defer { depth -= 1 }
            if depth == 1 {
                registerDying()
                dying = nil
                scroll()
            } else {
                probe.onDidScroll = nil
                if let target = dyingReference { multiplexer?.remove(target) }
            }
        }
        scroll()
    case .multiplexerDeinit:
        dying = nil
        multiplexer = nil
        owner = nil  // lifetimeBound: the owner's bag holds its registration too
    case .weakOwnerDropsDuringDispatch, .holderDropsDuringDispatch:
        first.onDidScroll = { probe in
            probe.onDidScroll = nil
            dying = nil
        }
        scroll()
    case .boundOwnerDiesDuringDispatch:
        dying = nil
        first.onDidScroll = { probe in
            probe.onDidScroll = nil
            owner = nil
        }
        scroll()
    }

    check(dyingReference == nil, "the dying target is still alive")
    check(report.runs == 1, "its deinit ran \(report.runs) times")
    check(log.freedInsideOwnCallback.isEmpty, "freed inside its own callback: \(log.freedInsideOwnCallback)")
    if point == .multiplexerDeinit {
        check(report.sawNoMultiplexer, "its weak reference to the multiplexer, being deinitialized, was not nil")
        return failures
    }
    check(!report.sawNoMultiplexer, "its weak reference to the multiplexer read nil")
    if action == .readState {
        check(report.count == 2, "count in the deinit: \(String(describing: report.count)), not 2")
        check(report.respondsToDidScroll == true, "responds(to: .didScroll) in the deinit was not true")
    }
    let sinceDeinit = log.deliveries.dropFirst(report.deliveriesAtDeinit ?? 0)
    check(!sinceDeinit.contains { $0.target == 1 }, "the dying target received a message: \(Array(sinceDeinit))")
    check(
        log.targets(of: .didScroll).filter { $0 == 0 }.count == sent + report.messagesSent,
        "the first target missed messages: \(log.deliveries)")
    log.deliveries.removeAll()
    scroll()
    var expected = [0]
    if action != .removeAnother { expected.append(2) }
    if action == .addAnother { expected.append(3) }
    check(log.targets(of: .didScroll) == expected, "after the release: \(log.targets(of: .didScroll)), not \(expected)")
    withExtendedLifetime((first, other, spare, owner, multiplexer)) {}
    return failures
}

/// Sends one `didScroll` to the weak reference's composition, if any.
private final class ComposedProbe: ScrollViewDelegate {
    let report: DeinitReport
    weak var composition: (any ScrollViewDelegate)?

    init(report: DeinitReport) { self.report = report }

    deinit {
        report.runs += 1
        if let composition {
            composition.scrollViewDidScroll(ScrollView())
        } else {
            report.sawNoMultiplexer = true
        }
    }
}

@Suite("A target's deinit may call back into the multiplexer that frees it")
struct DeinitCallbackTests {
    /// Seconds before a child that has not finished dies of SIGALRM: a deadlock fails its cell, not the run. The
    /// sanitizer builds run each cell in well under a second.
    static let alarmSeconds: UInt32 = 10

    @Test("no hang, no trap, every other target served, the dead one never", arguments: ReleasePoint.cells)
    func releasePoint(_ strategy: DispatchStrategy, _ point: ReleasePoint) async {
        // A child per cell: a deadlock kills the child by the alarm (an exit by signal, not success).
        // What a child takes is Codable, with its type spelled out. The child prints what it found wrong and exits
        // normally, so that the parent sees it; a deadlock ends it by SIGALRM, a trap by its signal.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [strategyName = strategy.rawValue as String, pointName = point.rawValue as String] in
            alarm(DeinitCallbackTests.alarmSeconds)
            let strategy = DispatchStrategy(rawValue: strategyName)!, point = ReleasePoint(rawValue: pointName)!
            for failure in DeinitAction.allCases.flatMap({ deinitCallbackFailures(strategy, point, $0) }) {
                print(failure)
            }
        }
        if let result {
            let output = String(decoding: result.standardOutputContent, as: UTF8.self)
            #expect(output.isEmpty, "\(output)")
        }
    }

    @Test("the cells that do not apply are the ones the file lists")
    func notApplicable() {
        let skipped = DispatchStrategy.allCases.flatMap { strategy in
            ReleasePoint.allCases.filter { $0.notApplicable(to: strategy) != nil }.map { "\(strategy).\($0)" }
        }
        // weakArray's four, four strong weak-owner rows, five strategies for each of the two owner rows
        #expect(skipped.count == 4 + 4 + 5 + 5, "\(skipped)")
        #expect(ReleasePoint.cells.count == DispatchStrategy.allCases.count * ReleasePoint.allCases.count - skipped.count)
    }

    @Test("a static composition's element freed in its deinit sees no composition")
    func staticCompositionDeinit() {
        let report = DeinitReport()
        do {
            let probe = ComposedProbe(report: report)
            let composition = ScrollViewSchema.compose { probe }
            probe.composition = composition
        }
        #expect(report.runs == 1)
        #expect(report.sawNoMultiplexer)
    }
}
