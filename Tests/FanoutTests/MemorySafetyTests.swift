import Fanout
import FanoutScrollViewKit
import Testing

// Memory safety and re-entrancy, checked for every strategy and both kinds of
// target. Each scenario runs in a child process (an exit test): before these
// guarantees, some of them freed a target while its own callback ran, which
// crashes (or, in a release build, silently corrupts) the process that runs
// it. A probe records its own deallocation while one of its callbacks is on
// the stack (`Log.freedInsideOwnCallback`), so a scenario fails even where the
// freed memory happens to stay readable.

/// How a callback lets go of a target.
enum LastReference: String, CaseIterable, Sendable {
    /// The target's owner (a screen) drops it.
    case ownerLetsGo
    /// The target is removed from the multiplexer.
    case removal
    /// Both: the last reference goes whatever the strategy.
    case ownerLetsGoAndRemoval
}

/// Where the reference is dropped from.
enum ReleasePath: String, CaseIterable, Sendable {
    /// The target's own callback.
    case ownCallback
    /// Another target's callback for a message the target sent from inside its own callback.
    case nestedMessage
}

/// Something an app keeps its behaviours in: a screen whose dismissal drops them.
final class Screen: RegistrationHolder {
    let registrations = RegistrationBag()
    var behavior: Probe?
}

/// The scenarios, run inside exit-test children.
enum SafetyScenario {
    /// Target 0, owned by a screen, receives `didScroll` and recurses `depth`
    /// levels deep through the multiplexer; at the deepest level the last
    /// reference is let go along `path`; then every level of its callback
    /// touches the target again. Target 1 is a bystander that, for
    /// `nestedMessage`, does the letting go from its `didEndDragging`.
    static func run(strategy: DispatchStrategy, kind: TargetKind, release: LastReference, path: ReleasePath, depth: Int) {
        let log = Log()
        let view = ScrollView()
        let multiplexer = strategy.makeMultiplexer()
        let screen = Screen()
        screen.behavior = kind.make(0, log: log)
        let bystander = kind.make(1, log: log)
        multiplexer.add(screen.behavior!)
        multiplexer.add(bystander)
        weak let target = screen.behavior
        let letGo = { [unowned multiplexer] in
            if release != .ownerLetsGo, let target { multiplexer.remove(target) }
            if release != .removal { screen.behavior = nil }
        }
        var level = 0
        screen.behavior!.onDidScroll = { [unowned multiplexer] probe in
            level += 1
            if level < depth {
                multiplexer.scrollViewDidScroll(view)
            } else if level == depth {
                switch path {
                case .ownCallback: letGo()
                case .nestedMessage: multiplexer.scrollViewDidEndDragging(view, willDecelerate: false)
                }
            }
            probe.scrollToTopAnswer.toggle()  // touches the target after the release
            precondition(!log.deallocated.contains(0), "target 0 was deallocated inside its own callback")
        }
        if path == .nestedMessage { bystander.onDidEndDragging = { _ in letGo() } }

        multiplexer.scrollViewDidScroll(view)

        precondition(log.freedInsideOwnCallback.isEmpty, "freed inside its own callback: \(log.freedInsideOwnCallback)")
        precondition(log.targets(of: .didScroll).filter { $0 == 0 }.count == depth, "target 0 missed a nested message")
        let ownerGone = release != .removal
        let multiplexerGone = release != .ownerLetsGo || !strategy.holdsTargetsStrongly
        precondition((target == nil) == (ownerGone && multiplexerGone), "target 0 alive: \(target != nil)")
        log.deliveries.removeAll()
        multiplexer.scrollViewDidScroll(view)
        let stillRegistered = target != nil && release == .ownerLetsGo
        precondition(log.targets(of: .didScroll) == (stillRegistered ? [0, 1] : [1]), "\(log.deliveries)")
        if let target { multiplexer.remove(target) }
        screen.behavior = nil
        precondition(target == nil)
        bystander.onDidEndDragging = nil
    }
}

@Suite("Memory safety: no target is freed inside its own callback")
struct MemorySafetyTests {
    static let arguments = DispatchStrategy.allCases.flatMap { strategy in
        TargetKind.allCases.map { (strategy, $0) }
    }

    @Test("a callback lets go of its own target, directly or through its owner", arguments: arguments)
    func ownCallback(strategy: DispatchStrategy, kind: TargetKind) async {
        for release in LastReference.allCases {
            await expectSurvival(strategy, kind, release, .ownCallback, depth: 1, "\(release)")
        }
    }

    @Test("another target, answering a message sent from the target's callback, lets go of it",
          arguments: arguments)
    func nestedMessage(strategy: DispatchStrategy, kind: TargetKind) async {
        for release in LastReference.allCases {
            await expectSurvival(strategy, kind, release, .nestedMessage, depth: 1, "\(release)")
        }
    }

    @Test("the target is let go three dispatches deep, with three of its callbacks on the stack",
          arguments: arguments)
    func deepNesting(strategy: DispatchStrategy, kind: TargetKind) async {
        for path in ReleasePath.allCases {
            await expectSurvival(strategy, kind, .ownerLetsGoAndRemoval, path, depth: 3, "\(path)")
        }
    }

    /// Runs the scenario in a child process, which must exit normally: a
    /// use-after-free crashes it (or ASan reports it) and a debug check traps.
    private func expectSurvival(
        _ strategy: DispatchStrategy, _ kind: TargetKind, _ release: LastReference, _ path: ReleasePath,
        depth: Int, _ comment: Comment
    ) async {
        await #expect(processExitsWith: .success, comment) {
            [strategy = strategy.rawValue as String, kind = kind.rawValue as String,
             release = release.rawValue as String, path = path.rawValue as String, depth = depth as Int] in
            SafetyScenario.run(
                strategy: DispatchStrategy(rawValue: strategy)!, kind: TargetKind(rawValue: kind)!,
                release: LastReference(rawValue: release)!, path: ReleasePath(rawValue: path)!, depth: depth)
        }
    }
}
