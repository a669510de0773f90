import Fanout

/// The event source: a model of `UIScrollView` with a single, weak delegate.
///
/// As UIKit's views do, the view asks its delegate which messages it
/// implements once, when the delegate is assigned, keeps the answers, and
/// sends a message only when its answer was yes; it asks again only when a
/// delegate is assigned again. Without a responding delegate,
/// ``scrollToTop()`` proceeds and ``viewForZooming()`` is `nil`.
///
/// A multiplexer whose targets change after it was assigned must therefore
/// be assigned again; ``setDelegate(_:)`` wires that up.
public final class ScrollView {
    /// The one object told about scrolling; not retained. Assigning it reads
    /// its ``ScrollViewDelegate/responds(to:)`` for every message, once.
    public weak var delegate: (any ScrollViewDelegate)? {
        didSet { cacheResponses() }
    }

    /// The messages the delegate said it implements when it was assigned, as bits by ordinal (UIKit keeps such
    /// flags).
    private var respondsBits: UInt64 = 0

    /// The messages the delegate said it implements when it was assigned.
    public var delegateResponds: Set<ScrollViewMessage> {
        Set(ScrollViewMessage.allCases.filter { respondsBits & 1 << $0.ordinal != 0 })
    }

    /// How far the content is scrolled.
    public private(set) var contentOffset: Double = 0

    /// Creates a view at offset 0 with no delegate.
    public init() {}

    private func cacheResponses() {
        respondsBits = 0
        guard let delegate else { return }
        for message in ScrollViewMessage.allCases where delegate.responds(to: message) {
            respondsBits |= 1 << message.ordinal
        }
    }

    /// The delegate, when it said it implements `message`.
    private func delegate(for message: ScrollViewMessage) -> (any ScrollViewDelegate)? {
        respondsBits & 1 << message.ordinal != 0 ? delegate : nil
    }

    /// Sets ``contentOffset``, then sends `scrollViewDidScroll(_:)`.
    public func scroll(to offset: Double) {
        contentOffset = offset
        delegate(for: .didScroll)?.scrollViewDidScroll(self)
    }

    /// Sends `scrollViewDidEndDragging(_:willDecelerate:)`.
    public func endDragging(willDecelerate: Bool) {
        delegate(for: .didEndDragging)?.scrollViewDidEndDragging(self, willDecelerate: willDecelerate)
    }

    /// Sends `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` with the offset at which deceleration
    /// would stop, `contentOffset + velocity`, for the delegate to change.
    ///
    /// - Returns: The offset the delegate left: where the view will come to rest.
    public func willEndDragging(withVelocity velocity: Double) -> Double {
        var target = contentOffset + velocity
        delegate(for: .willEndDragging)?.scrollViewWillEndDragging(
            self, withVelocity: velocity, targetContentOffset: &target)
        return target
    }

    /// Asks `scrollViewShouldScrollToTop(_:)`; when allowed, scrolls to 0,
    /// which sends `scrollViewDidScroll(_:)`.
    ///
    /// - Returns: Whether the view scrolled to the top.
    @discardableResult
    public func scrollToTop() -> Bool {
        let allowed = delegate(for: .shouldScrollToTop)?.scrollViewShouldScrollToTop(self) ?? true
        if allowed { scroll(to: 0) }
        return allowed
    }

    /// Asks `viewForZooming(in:)`.
    ///
    /// - Returns: The view to scale, or `nil`.
    public func viewForZooming() -> AnyObject? {
        delegate(for: .viewForZooming)?.viewForZooming(in: self) ?? nil
    }
}

extension ScrollView {
    /// Makes `multiplexer` the delegate, and assigns it again (`nil`, then
    /// the multiplexer) each time the set of messages its targets respond to
    /// changes, so that the view's cached answers follow the targets: the
    /// reset that delegate proxies for UIKit perform.
    public func setDelegate(_ multiplexer: any ScrollViewMultiplexer) {
        multiplexer.respondersDidChange = { [weak self, weak multiplexer] in
            guard let self, let multiplexer, self.delegate === multiplexer else { return }
            self.delegate = nil
            self.delegate = multiplexer
        }
        delegate = multiplexer
    }
}
