import Fanout

/// Compile-time fan-out: a multiplexer over a parameter pack of concrete
/// target types, fixed at construction. Every delivery is a direct call the
/// optimizer can inline, so this is the upper bound of what static dispatch
/// can do; the price is that targets cannot be added or removed, and every
/// width is a different type.
///
/// ```swift
/// let fanout = StaticMultiplexer(pullToRefresh, parallaxHeader, analytics)
/// fanout.scrollViewDidScroll(scrollView)
/// ```
///
/// It is not a ``ScrollViewDelegate`` itself (the protocol is class-bound and
/// this is a value); call it from one. All targets are sent every message:
/// `responds(to:)` is a run-time question a static fan-out does not ask.
///
/// A generic type over a parameter pack needs the Swift 5.9 runtime (macOS 14,
/// iOS 17), hence its availability; nothing in the `Fanout` library uses one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public struct StaticMultiplexer<each Target: ScrollViewDelegate> {
    @usableFromInline
    internal let targets: (repeat each Target)

    /// A fan-out to `targets`, in order, held strongly.
    @inlinable
    public init(_ targets: repeat each Target) {
        self.targets = (repeat each targets)
    }

    /// Sends `scrollViewDidScroll(_:)` to every target.
    ///
    /// - Complexity: O(*n*) direct calls, where *n* is the pack's length.
    @inlinable
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        repeat (each targets).scrollViewDidScroll(scrollView)
    }

    /// Sends `scrollViewDidEndDragging(_:willDecelerate:)` to every target.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        repeat (each targets).scrollViewDidEndDragging(scrollView, willDecelerate: decelerate)
    }

    /// Asks every target, without short-circuit; `true` when all agree.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        var answer = true
        for target in repeat each targets {
            answer = target.scrollViewShouldScrollToTop(scrollView) && answer
        }
        return answer
    }

    /// The first non-`nil` view a target offers, in order.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        for target in repeat each targets {
            if let view = target.viewForZooming(in: scrollView) { return view }
        }
        return nil
    }

    /// Sends `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` to every target, in order.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        repeat (each targets).scrollViewWillEndDragging(
            scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
    }
}
