import Fanout

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
}

// The glue of Documentation/ReusingForYourProtocol.md, written for the scroll view: every strategy is a
// `Multiplexer`, so this one extension makes all of them scroll-view delegates. The methods are written on
// `Multiplexer` itself, where the message types are concrete, so that each dispatch is specialized; the same
// methods inherited from a protocol extension generic over `Self` cost 20 times more (Documentation/Findings.md).
extension Multiplexer: ScrollViewDelegate, ScrollViewMultiplexer where Storage.Schema == ScrollViewSchema {
    /// Forwards to every responding target.
    @inlinable
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }

    /// Forwards to every responding target.
    @inlinable
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, (scrollView, decelerate))
    }

    /// Asks every responding target; `true` when all agree or none responds.
    @inlinable
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding target, in order.
    @inlinable
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }
}

/// A type that implements the scroll-view delegate methods by sending
/// ``ScrollViewSchema``'s descriptors. Multiplexers no longer need it: they
/// implement the methods themselves.
@available(*, deprecated, message: "Multiplexer implements ScrollViewDelegate itself")
public protocol ScrollViewForwarding: Multiplexing, ScrollViewMultiplexer where Schema == ScrollViewSchema {}

@available(*, deprecated, message: "Multiplexer implements ScrollViewDelegate itself")
extension ScrollViewForwarding {
    /// Forwards to every responding target.
    @inlinable
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }

    /// Forwards to every responding target.
    @inlinable
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, (scrollView, decelerate))
    }

    /// Asks every responding target; `true` when all agree or none responds.
    @inlinable
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding target, in order.
    @inlinable
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }
}

extension DispatchStrategy {
    /// A new, empty multiplexer for ``ScrollViewDelegate`` using this strategy.
    public func makeMultiplexer() -> any ScrollViewMultiplexer {
        switch self {
        case .existentialArray: ExistentialArrayMultiplexer<ScrollViewSchema>()
        case .closureTable: ClosureTableMultiplexer<ScrollViewSchema>()
        case .selectorDictionary: SelectorDictionaryMultiplexer<ScrollViewSchema>()
        case .weakArray: WeakArrayMultiplexer<ScrollViewSchema>()
        case .lifetimeBound: LifetimeBoundMultiplexer<ScrollViewSchema>()
        case .concurrent: ConcurrentMultiplexer<ScrollViewSchema>()
        }
    }
}

// The same glue for a fixed group of behaviours. The conformance is generic over
// the group's elements; `StaticComposition.deliver` runs code specialized for
// them all the same (Documentation/Findings.md, 22).
extension StaticComposition: ScrollViewDelegate where Schema == ScrollViewSchema {
    /// Forwards to every responding element.
    @inlinable
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }

    /// Forwards to every responding element.
    @inlinable
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, (scrollView, decelerate))
    }

    /// Asks every responding element; `true` when all agree or none responds.
    @inlinable
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding element, in order.
    @inlinable
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }
}

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

// The same one line per message as the multiplexers' glue, each method kept out
// of line: specialized for a conforming type, it is a function of its own in
// which the whole delivery is inlined, as on the group's own type, and the
// protocol's witness jumps to it. (Inlined into the witness, the chain once
// stopped at the first element for messages with an answer, Documentation/
// Findings.md, 26; the chain has been always inlined since, Findings 30, and
// the methods stay out of line so that each message is delivered by one
// function whose code the gate counts.)
extension ComposedScrollViewDelegate {
    /// Forwards to every responding element.
    @inlinable @inline(never)
    public func scrollViewDidScroll(_ scrollView: ScrollView) { send(Schema.didScroll, scrollView) }

    /// Forwards to every responding element.
    @inlinable @inline(never)
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, (scrollView, decelerate))
    }

    /// Asks every responding element; `true` when all agree or none responds.
    @inlinable @inline(never)
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding element, in order.
    @inlinable @inline(never)
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }

    /// Whether any element responds to `message`.
    @inlinable
    public func responds(to message: ScrollViewMessage) -> Bool { composition.responds(to: message) }
}

