@testable import Fanout
@testable import FanoutStatic
import FanoutScrollViewKit
import Testing

/// Which of Fanout's layout-dependent fast paths this build takes
/// (`Documentation/Portability.md`): all of them on Linux x86-64, none with
/// `-Xswiftc -DFANOUT_PORTABLE` or on any other platform. `.ci/run` runs the
/// whole suite both ways.
@Suite("Portable paths")
struct PortabilityTests {
    #if FANOUT_PORTABLE || !(os(Linux) && arch(x86_64))
    static let expectsFastPaths = false
    #else
    static let expectsFastPaths = true
    #endif

    @Test("the build takes the fast paths only on Linux x86-64 without FANOUT_PORTABLE")
    func pathsFollowTheBuild() {
        #expect(usesLayoutFastPaths == Self.expectsFastPaths)
        // An Any's bytes are read and written directly (forward's arguments and answers) only when probed, and
        // probed only on the fast paths.
        #expect(anyLayoutIsKnown == Self.expectsFastPaths)
        // forward's answers are written in place only on the fast paths (and, there, only in optimized builds:
        // a debug build's access to the rebound storage holds a second reference).
        var answers = [Any?](repeating: nil, count: 2)
        let reusable = answers.canReuseStorage()
        if !Self.expectsFastPaths { #expect(!reusable) }
    }

    @Test("a static composition reads its elements from the object only on the fast paths")
    func compositionStorage() {
        let log = Log()
        let group = ScrollViewSchema.compose { Probe(0, log: log); Probe(1, log: log) }
        #expect((group.portableStorage == nil) == Self.expectsFastPaths)
        group.send(ScrollViewSchema.didScroll, ScrollView())
        expectDeliveries(log, .didScroll, [0, 1])
    }

    @Test("a two-argument message is delivered with its arguments apart only on the fast paths, and the same either way")
    func argumentPair() {
        let message = ScrollViewSchema.didEndDragging
        #expect((message.pair != nil) == Self.expectsFastPaths)
        let pairBody = message.pairBody() as ((any ScrollViewDelegate, ScrollView, Bool) -> Void)?
        #expect((pairBody != nil) == Self.expectsFastPaths)
        // A descriptor of one tuple argument has no two-argument body on any path.
        let tupled = Message<ScrollViewSchema, (ScrollView, Bool), Void>(.didEndDragging) {
            $0.scrollViewDidEndDragging($1.0, willDecelerate: $1.1)
        }
        #expect(tupled.pair == nil)
        for strategy in DispatchStrategy.allCases {
            let log = Log(), view = ScrollView()
            let multiplexer = strategy.makeMultiplexer(for: ScrollViewSchema.self)
            let targets = [Probe(0, log: log), Probe(1, log: log, responders: [.didScroll])]
            for target in targets { multiplexer.add(target) }
            multiplexer.deliver(message, view, true) { _ in true }  // apart
            multiplexer.deliver(message, (view, false)) { _ in true }  // the tuple
            multiplexer.deliver(tupled, view, true) { _ in true }  // apart, no two-argument body: the tuple
            #expect(log.targets(of: .didEndDragging) == [0, 0, 0], "\(strategy)")
            #expect(log.deliveries.map(\.detail) == ["true", "false", "true"], "\(strategy)")
            withExtendedLifetime(targets) {}
        }
    }
}
