import Fanout

/// The messages of ``ScrollViewDelegate``; each raw value is the Objective-C
/// selector of the `UIScrollViewDelegate` method it models.
public enum ScrollViewMessage: String, CaseIterable, Sendable, MessageKey {
    case didScroll = "scrollViewDidScroll:"
    case didEndDragging = "scrollViewDidEndDragging:willDecelerate:"
    case shouldScrollToTop = "scrollViewShouldScrollToTop:"
    case viewForZooming = "viewForZoomingInScrollView:"
    case willEndDragging = "scrollViewWillEndDragging:withVelocity:targetContentOffset:"

    /// The position of this message in `allCases`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var ordinal: Int {
        switch self {
        case .didScroll: 0
        case .didEndDragging: 1
        case .shouldScrollToTop: 2
        case .viewForZooming: 3
        case .willEndDragging: 4
        }
    }
}
