/// A target that ties its registrations in a ``LifetimeBoundMultiplexer`` to
/// its own lifetime: it owns a ``RegistrationBag``, and when the target is
/// deallocated the bag goes with it and every registration in it removes
/// itself, the Swift counterpart of binding a helper to an Objective-C object
/// with an associated object.
///
/// ```swift
/// final class ParallaxHeader: ScrollViewDelegate, RegistrationHolder {
///     let registrations = RegistrationBag()
///     func scrollViewDidScroll(_ scrollView: ScrollView) { … }
/// }
/// ```
///
/// A holder is not retained by the multiplexer and is called without a
/// retain or a weak load, so its owner must keep it alive while it can
/// receive messages, and it must not drop the last strong reference to itself
/// from inside one of its own callbacks (a debug build traps with a message
/// if it does). Targets that are not holders are held weakly instead.
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
