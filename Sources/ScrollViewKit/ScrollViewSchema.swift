import Fanout

/// The description of ``ScrollViewDelegate`` that every strategy forwards:
/// one descriptor per message.
///
/// Each descriptor also gives its call in bound form (``Message/withBoundCall(_:)``),
/// so that `forward` (``SelectorDictionaryMultiplexer``) calls the target's
/// method directly; the tests check that both forms make the same call.
public enum ScrollViewSchema: DelegateSchema {
    public typealias Target = any ScrollViewDelegate
    public typealias Key = ScrollViewMessage

    /// `scrollViewDidScroll(_:)`.
    @inlinable public static var didScroll: Message<Self, ScrollView, Void> {
        .init(.didScroll) { $0.scrollViewDidScroll($1) }
            .withBoundCall { target in { target.scrollViewDidScroll($0) } }
    }

    /// `scrollViewDidEndDragging(_:willDecelerate:)`.
    @inlinable public static var didEndDragging: Message<Self, (ScrollView, Bool), Void> {
        .init(.didEndDragging) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
            .withBoundCall { target in { target.scrollViewDidEndDragging($0.0, willDecelerate: $0.1) } }
    }

    /// `scrollViewShouldScrollToTop(_:)`.
    @inlinable public static var shouldScrollToTop: Message<Self, ScrollView, Bool> {
        .init(.shouldScrollToTop) { $0.scrollViewShouldScrollToTop($1) }
            .withBoundCall { target in { target.scrollViewShouldScrollToTop($0) } }
    }

    /// `viewForZooming(in:)`.
    @inlinable public static var viewForZooming: Message<Self, ScrollView, AnyObject?> {
        .init(.viewForZooming) { $0.viewForZooming(in: $1) }
            .withBoundCall { target in { target.viewForZooming(in: $0) } }
    }

    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`: three arguments, sent apart.
    @inlinable public static var willEndDragging:
        Message<Self, (ScrollView, Double, UnsafeMutablePointer<Double>), Void>
    {
        .init(.willEndDragging) { $0.scrollViewWillEndDragging($1, withVelocity: $2, targetContentOffset: $3) }
            .withBoundCall { target in
                { target.scrollViewWillEndDragging($0.0, withVelocity: $0.1, targetContentOffset: $0.2) }
            }
    }

    /// The five messages, each once: the schema's one list of them.
    @inlinable
    public static func visitMessages<Visitor: MessageVisitor>(_ visitor: inout Visitor) where Visitor.Schema == Self {
        visitor.visit(didScroll)
        visitor.visit(didEndDragging)
        visitor.visit(shouldScrollToTop)
        visitor.visit(viewForZooming)
        visitor.visit(willEndDragging)
    }

    /// Asks the target itself, as `respondsToSelector:` would.
    @inlinable
    public static func responds(_ target: Target, to key: Key) -> Bool {
        target.responds(to: key)
    }
}
