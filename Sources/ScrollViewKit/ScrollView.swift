import Fanout

/// The event source: a model of `UIScrollView` with a single, weak delegate.
///
/// The view sends a message only when `delegate?.responds(to:)` is `true`.
/// Without a responding delegate, ``scrollToTop()`` proceeds and
/// ``viewForZooming()`` is `nil`.
public final class ScrollView {
    /// The one object told about scrolling; not retained.
    public weak var delegate: (any ScrollViewDelegate)?

    /// How far the content is scrolled.
    public private(set) var contentOffset: Double = 0

    /// Creates a view at offset 0 with no delegate.
    public init() {}

    /// Sets ``contentOffset``, then sends `scrollViewDidScroll(_:)`.
    public func scroll(to offset: Double) {
        contentOffset = offset
        if let delegate, delegate.responds(to: .didScroll) {
            delegate.scrollViewDidScroll(self)
        }
    }

    /// Sends `scrollViewDidEndDragging(_:willDecelerate:)`.
    public func endDragging(willDecelerate: Bool) {
        if let delegate, delegate.responds(to: .didEndDragging) {
            delegate.scrollViewDidEndDragging(self, willDecelerate: willDecelerate)
        }
    }

    /// Asks `scrollViewShouldScrollToTop(_:)`; when allowed, scrolls to 0,
    /// which sends `scrollViewDidScroll(_:)`.
    ///
    /// - Returns: Whether the view scrolled to the top.
    @discardableResult
    public func scrollToTop() -> Bool {
        var allowed = true
        if let delegate, delegate.responds(to: .shouldScrollToTop) {
            allowed = delegate.scrollViewShouldScrollToTop(self)
        }
        if allowed { scroll(to: 0) }
        return allowed
    }

    /// Asks `viewForZooming(in:)`.
    ///
    /// - Returns: The view to scale, or `nil`.
    public func viewForZooming() -> AnyObject? {
        guard let delegate, delegate.responds(to: .viewForZooming) else { return nil }
        return delegate.viewForZooming(in: self)
    }
}
