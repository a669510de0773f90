import Fanout

/// A type of your own that is a ``StaticComposition`` as a delegate: it holds the group and forwards every message.
///
/// ```swift
/// final class ListBehaviours: ComposedScrollViewDelegate {
///     let composition = ScrollViewSchema.compose {
///         PullToRefresh()
///         ParallaxHeader()
///     }
/// }
/// scrollView.delegate = ListBehaviours()
/// ```
///
/// Through the delegate protocol, a `StaticComposition` itself runs its generic conformance's witnesses
/// unspecialized. A type that is not generic, conforming through a protocol like this one, gets witnesses
/// specialized for its elements, so each message is delivered inline. A delegate protocol's glue declares the
/// refinement that adds the protocol's methods, one line per message, as the multiplexers' do.
public protocol ComposedBehaviours<Schema>: Delivering {
    /// The group's elements.
    associatedtype Elements: StaticElements where Elements.Schema == Schema

    /// The group messages are forwarded to.
    var composition: StaticComposition<Schema, Elements> { get }
}

extension ComposedBehaviours {
    /// The number of elements.
    @inlinable
    public var count: Int { composition.count }

    /// Whether any element responds to `key`.
    @inlinable
    public func responds(to key: Schema.Key) -> Bool { composition.responds(to: key) }

    /// Sends `message` to every element that responds to it, in order, while `shouldContinue` accepts the answers.
    ///
    /// - Complexity: O(*n*) direct calls for *n* elements.
    @inlinable @inline(__always)
    public func deliver<Arguments, Result>(
        _ message: Message<Schema, Arguments, Result>, _ arguments: Arguments, while shouldContinue: (Result) -> Bool
    ) {
        composition.deliver(message, arguments, while: shouldContinue)
    }
}
