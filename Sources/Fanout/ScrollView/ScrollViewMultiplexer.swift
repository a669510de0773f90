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

/// A generic multiplexer for ``ScrollViewSchema`` implements the delegate
/// methods by sending the schema's descriptors; every strategy gets its
/// ``ScrollViewMultiplexer`` conformance from this one extension.
public protocol ScrollViewForwarding: Multiplexing, ScrollViewMultiplexer where Schema == ScrollViewSchema {}

extension ScrollViewForwarding {
    /// Forwards to every responding target.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits.
    @inlinable
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        send(Schema.didScroll, scrollView)
    }

    /// Forwards to every responding target.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits.
    @inlinable
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        send(Schema.didEndDragging, (scrollView, decelerate))
    }

    /// Asks every responding target; `true` when all agree or none responds.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits.
    @inlinable
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        askAll(Schema.shouldScrollToTop, scrollView)
    }

    /// The first non-`nil` view offered by a responding target, in order.
    ///
    /// - Complexity: O(*n*) in the targets the strategy visits.
    @inlinable
    public func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        askUntilAnswered(Schema.viewForZooming, scrollView)
    }
}

extension ExistentialArrayMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}

extension ClosureTableMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}

extension SelectorDictionaryMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}

extension WeakArrayMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}

extension LifetimeBoundMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}

extension ConcurrentMultiplexer: ScrollViewDelegate, ScrollViewMultiplexer, ScrollViewForwarding
where Schema == ScrollViewSchema {}
