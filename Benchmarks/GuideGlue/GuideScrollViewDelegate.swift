import Fanout
import FanoutScrollViewKit

// The scroll view's five messages, with the glue of Documentation/ReusingForYourProtocol.md written exactly as the
// guide shows it for a nonisolated protocol in a library: a key without a hand-written `ordinal`, descriptors
// without the bound form, the one list in `visitMessages`, one method per message. The bench measures it beside
// ScrollViewKit's hand-tuned glue, so that the numbers a user reads are the numbers a user gets. Nonisolated,
// because the bench sends from whichever thread runs it.

/// `ScrollViewDelegate`'s messages, as a protocol whose glue follows the guide.
public protocol GuideScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    func viewForZooming(in scrollView: ScrollView) -> AnyObject?
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>)
    /// Whether this delegate implements `message`: the analog of `respondsToSelector:`.
    func responds(to message: GuideMessage) -> Bool
}

public enum GuideMessage: String, MessageKey {
    case didScroll = "scrollViewDidScroll:"
    case didEndDragging = "scrollViewDidEndDragging:willDecelerate:"
    case shouldScrollToTop = "scrollViewShouldScrollToTop:"
    case viewForZooming = "viewForZoomingInScrollView:"
    case willEndDragging = "scrollViewWillEndDragging:withVelocity:targetContentOffset:"
}

public enum GuideSchema: DelegateSchema {
    public typealias Target = any GuideScrollViewDelegate
    public typealias Key = GuideMessage
    @inlinable public static var didScroll: Message<Self, ScrollView, Void> {
        .init(.didScroll) { $0.scrollViewDidScroll($1) }
    }
    @inlinable public static var didEndDragging: Message<Self, (ScrollView, Bool), Void> {
        .init(.didEndDragging) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
    }
    @inlinable public static var shouldScrollToTop: Message<Self, ScrollView, Bool> {
        .init(.shouldScrollToTop) { $0.scrollViewShouldScrollToTop($1) }
    }
    @inlinable public static var viewForZooming: Message<Self, ScrollView, AnyObject?> {
        .init(.viewForZooming) { $0.viewForZooming(in: $1) }
    }
    @inlinable public static var willEndDragging: Message<Self, (ScrollView, Double, UnsafeMutablePointer<Double>), Void> {
        .init(.willEndDragging) { $0.scrollViewWillEndDragging($1, withVelocity: $2, targetContentOffset: $3) }
    }
    @inlinable public static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(didScroll)
        visitor.visit(didEndDragging)
        visitor.visit(shouldScrollToTop)
        visitor.visit(viewForZooming)
        visitor.visit(willEndDragging)
    }
    @inlinable public static func responds(_ target: Target, to key: Key) -> Bool { target.responds(to: key) }
}

extension GuideScrollViewDelegate where Self: Delivering, Schema == GuideSchema {
    @inlinable @inline(__always)
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }
    @inlinable @inline(__always)
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, scrollView, decelerate)
    }
    @inlinable @inline(__always)
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }
    @inlinable @inline(__always)
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }
    @inlinable @inline(__always)
    public func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        send(Schema.willEndDragging, scrollView, velocity, targetContentOffset)
    }
}

extension ExistentialArrayMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
extension ClosureTableMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
extension SelectorDictionaryMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
extension WeakArrayMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
extension LifetimeBoundMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
extension ConcurrentMultiplexer: GuideScrollViewDelegate where Schema == GuideSchema {}
