import Fanout
import FanoutStatic

/// The one interface every dispatch strategy offers for ``ScrollViewDelegate``:
/// set it as a ``ScrollView``'s delegate and it forwards every message to its
/// targets.
///
/// ```swift
/// let multiplexer = DispatchStrategy.closureTable.makeMultiplexer()
/// multiplexer.add(pullToRefresh)
/// multiplexer.add(parallaxHeader)
/// scrollView.delegate = multiplexer   // weak: keep `multiplexer` alive yourself
/// ```
public protocol ScrollViewMultiplexer: ScrollViewDelegate {
    /// Registers `target`; registering a registered target does nothing.
    /// The target's `responds(to:)` is read now, once per message.
    func add(_ target: any ScrollViewDelegate)
    /// Unregisters `target`; unregistering an unknown target does nothing.
    func remove(_ target: any ScrollViewDelegate)
    /// The number of live registered targets.
    var count: Int { get }
    /// Called when the set of messages some target responds to changes
    /// (`Multiplexing.respondersDidChange`).
    var respondersDidChange: (() -> Void)? { get set }
}

// The glue of Documentation/ReusingForYourProtocol.md, written for the scroll view: one method per message, in
// a constrained extension of the delegate protocol, serves every multiplexer, a static composition and a type
// that holds one. Each method is inlined into the witness of each conformance below, where the multiplexer's
// or the group's type is known, so each delivery runs code specialized for its storage and message.
extension ScrollViewDelegate where Self: Delivering, Self.Schema == ScrollViewSchema {
    /// Forwards to every responding target.
    @inlinable @inline(__always)
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }

    /// Forwards to every responding target.
    @inlinable @inline(__always)
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, scrollView, decelerate)
    }

    /// Asks every responding target; `true` when all agree or none responds.
    @inlinable @inline(__always)
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding target, in order.
    @inlinable @inline(__always)
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }

    /// Forwards to every responding target, in order: each sees the offset the targets before it left.
    @inlinable @inline(__always)
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        send(Schema.willEndDragging, scrollView, velocity, targetContentOffset)
    }
}

// Each strategy's multiplexer serves the protocol through the glue above: one line per strategy.
extension ExistentialArrayMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}
extension ClosureTableMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}
extension SelectorDictionaryMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}
extension WeakArrayMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}
extension LifetimeBoundMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}
extension ConcurrentMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Schema == ScrollViewSchema {}

extension DispatchStrategy {
    /// A new, empty multiplexer for ``ScrollViewDelegate`` using this strategy.
    public func makeMultiplexer() -> any ScrollViewMultiplexer {
        // Every strategy's multiplexer is a scroll-view multiplexer by the conformances above.
        guard let multiplexer = makeMultiplexer(for: ScrollViewSchema.self) as? any ScrollViewMultiplexer else {
            preconditionFailure("\(self)'s multiplexer is not a ScrollViewMultiplexer")
        }
        return multiplexer
    }
}

// A fixed group of behaviours as the delegate, through its conformance, generic over the group's elements:
// `StaticComposition.deliver` runs code specialized for them through the table it built.
extension StaticComposition: ScrollViewDelegate where Schema == ScrollViewSchema {}

/// A type of your own that holds a ``StaticComposition`` of scroll-view
/// behaviours and is their delegate, with witnesses specialized for the
/// group's elements (see ``ComposedBehaviours``):
///
/// ```swift
/// final class ListBehaviours: ComposedScrollViewDelegate {
///     let composition = ScrollViewSchema.compose { PullToRefresh(); ParallaxHeader() }
/// }
/// ```
public protocol ComposedScrollViewDelegate: ComposedBehaviours, ScrollViewDelegate where Schema == ScrollViewSchema {}

extension ComposedScrollViewDelegate {
    /// Whether any element responds to `message`.
    @inlinable
    public func responds(to message: ScrollViewMessage) -> Bool { composition.responds(to: message) }
}
