/// The description of ``ScrollViewDelegate`` that every strategy forwards:
/// one descriptor per message.
public enum ScrollViewSchema: DelegateSchema {
    public typealias Target = any ScrollViewDelegate
    public typealias Key = ScrollViewMessage

    /// `scrollViewDidScroll(_:)`.
    @inlinable public static var didScroll: Message<Self, ScrollView, Void> {
        .init(.didScroll) { $0.scrollViewDidScroll($1) }
    }

    /// `scrollViewDidEndDragging(_:willDecelerate:)`.
    @inlinable public static var didEndDragging: Message<Self, (ScrollView, Bool), Void> {
        .init(.didEndDragging) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
    }

    /// `scrollViewShouldScrollToTop(_:)`.
    @inlinable public static var shouldScrollToTop: Message<Self, ScrollView, Bool> {
        .init(.shouldScrollToTop) { $0.scrollViewShouldScrollToTop($1) }
    }

    /// `viewForZooming(in:)`.
    @inlinable public static var viewForZooming: Message<Self, ScrollView, AnyObject?> {
        .init(.viewForZooming) { $0.viewForZooming(in: $1) }
    }

    /// All four messages.
    public static var messages: [any MessageProtocol<Self>] {
        [didScroll, didEndDragging, shouldScrollToTop, viewForZooming]
    }

    /// A typed weak reference: one weak load per call, no cast.
    @inlinable
    public static func weakReference(to target: Target) -> () -> Target? {
        { [weak target] in target }
    }

    /// Asks the target itself, as `respondsToSelector:` would.
    @inlinable
    public static func responds(_ target: Target, to key: Key) -> Bool {
        target.responds(to: key)
    }
}
