@testable import Fanout
import ScrollViewKit
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
        #expect(Portability.usesLayoutFastPaths == Self.expectsFastPaths)
        // An Any's bytes are read and written directly (forward's arguments and answers) only when probed, and
        // probed only on the fast paths.
        #expect(ExistentialLayout.isKnown == Self.expectsFastPaths)
        // forward's answers are written in place only on the fast paths (and, there, only in optimized builds:
        // a debug build's access to the rebound storage holds a second reference).
        var answers = [Any?](repeating: nil, count: 2)
        let reusable = ReusedAnswers.canReuse(&answers)
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
}
