import Fanout
import FanoutScrollViewKit
import Testing

@Suite("Compile-time fan-out")
struct StaticMultiplexerTests {
    @Test("a parameter pack delivers every message to every target, in order")
    func deliversInOrder() {
        // A generic type over a parameter pack needs macOS 14 or iOS 17.
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        let log = Log(), view = ScrollView()
        let first = Probe(0, log: log), second = BoundProbe(1, log: log), third = Probe(2, log: log)
        let fanout = StaticMultiplexer(first, second, third)
        fanout.scrollViewDidScroll(view)
        fanout.scrollViewDidEndDragging(view, willDecelerate: true)
        expectDeliveries(log, .didScroll, [0, 1, 2])
        expectDeliveries(log, .didEndDragging, [0, 1, 2])
        second.scrollToTopAnswer = false
        #expect(!fanout.scrollViewShouldScrollToTop(view))
        expectDeliveries(log, .shouldScrollToTop, [0, 1, 2])
        let zoom = SilentTarget()
        second.zoomAnswer = zoom
        #expect(fanout.viewForZooming(in: view) === zoom)
        expectDeliveries(log, .viewForZooming, [0, 1])
    }
}
