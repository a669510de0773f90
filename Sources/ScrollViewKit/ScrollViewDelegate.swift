import Fanout

/// A model of `UIScrollViewDelegate` (UIKit is not available on Linux): the
/// protocol a ``ScrollView`` talks to, and that multiplexers forward.
///
/// Every method has a default in a protocol extension (no-op, `true`, `nil`),
/// and ``responds(to:)`` defaults to `true`, so a target implements only what
/// it needs: the Swift stand-in for `@optional` methods. A target that wants
/// the sender to skip a message, as `respondsToSelector:` would, overrides
/// ``responds(to:)``.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// The user lifted their finger; the view keeps moving when `decelerate` is `true`.
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// Whether the view may scroll to the top.
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    /// The view to scale when zooming, if any.
    func viewForZooming(in scrollView: ScrollView) -> AnyObject?
    /// The user is about to lift their finger at `velocity`; deceleration would stop at `targetContentOffset`, which
    /// the delegate may change by writing through it.
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>)
    /// Whether this delegate implements `message`: the analog of `respondsToSelector:`.
    func responds(to message: ScrollViewMessage) -> Bool
}

extension ScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    /// Allows scrolling to the top.
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { true }
    /// Offers no view.
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? { nil }
    /// Leaves the target offset as it is.
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {}
    /// Responds to every message.
    public func responds(to message: ScrollViewMessage) -> Bool { true }
}
