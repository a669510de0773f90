/// An object that owns registrations in ``LifetimeBoundMultiplexer``s through
/// its ``RegistrationBag``: when it is deallocated the bag goes with it and
/// every registration in the bag ends, the Swift counterpart of binding a
/// helper to an Objective-C object with an associated object.
///
/// A holder added with ``LifetimeBoundMultiplexer/add(_:)`` is bound to its
/// own lifetime; a behaviour added with
/// ``LifetimeBoundMultiplexer/add(_:boundTo:)`` is bound to the lifetime of
/// its owner, the holder.
///
/// ```swift
/// final class ParallaxHeader: ScrollViewDelegate, RegistrationHolder {
///     let registrations = RegistrationBag()
///     func scrollViewDidScroll(_ scrollView: ScrollView) { … }
/// }
/// ```
///
/// A holder bound to its own lifetime is not kept alive by the multiplexer,
/// but it is retained while one of its callbacks runs, so its callback may
/// make its owner let go of it (a behaviour that dismisses its screen).
///
/// The three ways to register with `lifetimeBound` and what each costs:
/// `Documentation/Strategies.md`, *lifetimeBound*.
public protocol RegistrationHolder: AnyObject {
    /// The registrations that end when this object is deallocated.
    var registrations: RegistrationBag { get }
}

/// Registrations that end when the bag is deallocated, normally together with
/// the ``RegistrationHolder`` that owns it.
public final class RegistrationBag {
    private var tokens: [RegistrationToken] = []

    /// Creates an empty bag.
    public init() {}

    /// The number of registrations in the bag, ended or not.
    public var count: Int { tokens.count }

    func insert(_ token: RegistrationToken) {
        tokens.append(token)
    }

    func remove(_ token: RegistrationToken) {
        tokens.removeAll { $0 === token }
    }
}

/// Ends one registration when deallocated.
final class RegistrationToken {
    private let end: () -> Void

    init(end: @escaping () -> Void) {
        self.end = end
    }

    deinit { end() }
}
