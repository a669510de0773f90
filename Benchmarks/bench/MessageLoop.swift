import FanoutMicrobench
import FanoutScrollViewKit
import FanoutGuideGlue

/// What a benchmark loop sends the five messages to: a multiplexer through
/// its delegate protocol, a hand-written loop, a static fan-out.
protocol MessageReceiver {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    func viewForZooming(in scrollView: ScrollView) -> AnyObject?
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>)
}

/// The one place the five messages are switched over.
enum MessageLoop {
    /// The operation that sends `message` to `receiver` once per iteration,
    /// answers kept from the optimizer. Inlined into each caller, so the loop
    /// is specialized for the receiver.
    @inline(__always)
    static func body<Receiver: MessageReceiver>(sending message: ScrollViewMessage, to receiver: Receiver) -> (Int) -> Void {
        let view = ScrollView()
        switch message {
        case .didScroll:
            return { iterations in
                for _ in 0..<iterations { receiver.scrollViewDidScroll(view) }
            }
        case .didEndDragging:
            return { iterations in
                for _ in 0..<iterations { receiver.scrollViewDidEndDragging(view, willDecelerate: true) }
            }
        case .shouldScrollToTop:
            return { iterations in
                var allowed = true
                for _ in 0..<iterations { allowed = receiver.scrollViewShouldScrollToTop(view) && allowed }
                blackHole(allowed)
            }
        case .viewForZooming:
            return { iterations in
                var found = 0
                for _ in 0..<iterations where receiver.viewForZooming(in: view) != nil { found += 1 }
                blackHole(found)
            }
        case .willEndDragging:
            // The targets write through the pointer; one buffer for the whole loop, as a view keeps its own.
            let offset = UnsafeMutablePointer<Double>.allocate(capacity: 1)
            offset.initialize(to: 0)
            return { iterations in
                for _ in 0..<iterations {
                    receiver.scrollViewWillEndDragging(view, withVelocity: 1, targetContentOffset: offset)
                }
                blackHole(offset.pointee)
            }
        }
    }
}

/// A delegate called through its protocol, as a `ScrollView` calls its delegate.
struct DelegateReceiver: MessageReceiver {
    let delegate: any ScrollViewDelegate

    func scrollViewDidScroll(_ scrollView: ScrollView) { delegate.scrollViewDidScroll(scrollView) }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        delegate.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate)
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { delegate.scrollViewShouldScrollToTop(scrollView) }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { delegate.viewForZooming(in: scrollView) }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        delegate.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
    }
}

/// A multiplexer with the guide's glue, called through its protocol.
struct GuideReceiver: MessageReceiver {
    let delegate: any GuideScrollViewDelegate

    func scrollViewDidScroll(_ scrollView: ScrollView) { delegate.scrollViewDidScroll(scrollView) }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        delegate.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate)
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { delegate.scrollViewShouldScrollToTop(scrollView) }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { delegate.viewForZooming(in: scrollView) }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        delegate.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension StaticMultiplexer: MessageReceiver {}
