// `LifetimeBoundMultiplexer`'s registrations and what ends them: the holder, its bag, the entry; `WeakArrayMultiplexer`'s
// registrations, all of them weak.

import FanoutSupport

/// An object that owns registrations in ``LifetimeBoundMultiplexer``s through its ``RegistrationBag``: when it is
/// deallocated the bag goes with it and every registration in the bag ends, the Swift counterpart of binding a
/// helper to an Objective-C object with an associated object.
///
/// A holder added with ``LifetimeBoundMultiplexer/add(_:)`` is bound to its own lifetime: not kept alive by the
/// multiplexer, but retained while one of its callbacks runs, so that the callback may make its owner let go of
/// it (a behaviour that dismisses its screen). A behaviour added with
/// ``LifetimeBoundMultiplexer/add(_:boundTo:)`` is bound to the lifetime of its owner, the holder.
///
/// ```swift
/// final class ParallaxHeader: ScrollViewDelegate, RegistrationHolder {
///     let registrations = RegistrationBag()
///     func scrollViewDidScroll(_ scrollView: ScrollView) { … }
/// }
/// ```
public protocol RegistrationHolder: AnyObject {
    /// The registrations that end when this object is deallocated.
    var registrations: RegistrationBag { get }
}

/// Registrations that end when the bag is deallocated, normally with the ``RegistrationHolder`` that owns it.
public final class RegistrationBag {
    /// The registrations in the bag, and at the same index what ends each, run when the bag is deallocated. Apart,
    /// so that looking a registration up reads no closure (a copy of one is a retain and a release).
    private var registrations: [ObjectIdentifier] = []
    private var ends: [() -> Void] = []

    /// Creates an empty bag.
    public init() {}

    /// The number of registrations in the bag, ended or not.
    public var count: Int { registrations.count }

    func insert(_ registration: ObjectIdentifier, endedBy end: __owned @escaping () -> Void) {
        registrations.append(registration)
        ends.append(consume end)
    }

    /// Forgets `registration`, which no multiplexer holds any more.
    func remove(_ registration: ObjectIdentifier) {
        guard let index = registrations.firstIndex(of: registration) else { return }
        registrations.remove(at: index)
        ends.remove(at: index)
    }

    deinit {
        // In registration order. Nothing else can reach the bag now (its references were weak), so nothing changes
        // `ends` meanwhile; each `end` may run a multiplexer's announcement and a released target's deinit.
        for end in ends { end() }
    }
}

/// One entry of a ``LifetimeBoundMultiplexer``'s table: the registration and, if bound to an owner, the target.
@frozen @usableFromInline
internal struct LifetimeSlot<Schema: DelegateSchema> {
    @usableFromInline let registration: LifetimeRegistration<Schema>
    /// The target of a registration bound to an owner (`.strong`), owned by the entry so that a dispatch calls it
    /// from the pinned buffer; `nil` for the others, whose targets the table must not keep alive.
    @usableFromInline var owned: Schema.Target?  // `var` only to be lent in place (`lend`); written by `init` alone
    /// The registration's ``LifetimeRegistration/stored``, copied so that a dispatch reaches the other targets
    /// without going through the registration first.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The registration's ``LifetimeRegistration/hold``, copied here for the same reason.
    @usableFromInline let hold: LifetimeRegistration<Schema>.Hold

    init(_ registration: LifetimeRegistration<Schema>, target: Schema.Target) {
        self.registration = registration
        hold = registration.hold
        owned = hold == .strong ? target : nil
        stored = registration.stored
    }

    /// Whether this is a weak registration whose target has been deallocated.
    var isDeadWeakReference: Bool { registration.isDeadWeakReference }
}

/// One registration of a ``LifetimeBoundMultiplexer``, or of a ``WeakArrayMultiplexer`` (all `weak`).
@usableFromInline
internal final class LifetimeRegistration<Schema: DelegateSchema> {
    /// How the registration holds its target.
    @usableFromInline
    internal enum Hold {
        /// Owned until the owner's bag ends the registration (``LifetimeBoundMultiplexer/add(_:boundTo:)``).
        case strong
        /// Stored without a reference count; called as is (``LifetimeBoundMultiplexer/unsafeAddUnretained(_:)``).
        case unretained
        /// Stored without a reference count; retained for each call (``LifetimeBoundMultiplexer/add(_:)``
        /// with a ``RegistrationHolder``).
        case retainedPerCall
        /// A weak reference, loaded for each call. A dispatch loads ``weakObject`` (a strong reference, +1) and uses
        /// ``stored`` only while it holds that reference, until the call returns: so the copy is never used once the
        /// target's deinit has begun, and the target cannot be freed while its call runs, whatever the call does.
        case weak
    }

    @usableFromInline let hold: Hold
    /// The target: owned for `strong`, otherwise an uncounted copy (``uncountedCopy(of:)``), valid while
    /// ``isActive`` or, for `weak`, while ``weakObject`` loads.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The target as an object, uncounted, for every hold but `strong`: a dispatch retains and releases a
    /// `retainedPerCall` target through it, and releases through it a `weak` load's +1.
    @usableFromInline let object: Unmanaged<AnyObject>?
    /// The target's object, for `weak`. Written once, by `init`, then read in place: no exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline weak var weakObject: AnyObject?
    /// Read on every delivery; written only by the same thread when the target dies: no exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline private(set) var isActive = true
    /// The bag whose deallocation ends the registration, if any: the holder's own for a holder bound to itself, the
    /// first owner's for a target bound to owners. Weak, so that a bag being deallocated reads `nil` here.
    weak var bag: RegistrationBag?

    /// The bags of the owners a target was bound to after the first (``LifetimeBoundMultiplexer/add(_:boundTo:)``):
    /// the registration ends when the last of ``bag`` and these goes. Allocated when there is one, and a pointer, not
    /// an array, so that a registration with one owner or none pays nothing for them, not even a release.
    private var otherOwners: UnsafeMutablePointer<[Owner]>?

    /// One bag of ``otherOwners``.
    private struct Owner {
        weak var bag: RegistrationBag?
    }

    #if DEBUG
        /// Calls to an `unretained` target on the stack, counted up and back down by nested dispatches, so that a
        /// deallocation inside any of them is caught.
        @exclusivity(unchecked) @usableFromInline var callsInFlight = 0
    #endif

    /// Whether this is a weak registration whose target has been deallocated (others end when their bag goes).
    var isDeadWeakReference: Bool { hold == .weak && weakObject == nil }

    /// Whether a holder bound to its own lifetime is inside its deinit (its bag ends the registration after it).
    @usableFromInline @_alwaysEmitIntoClient
    var isDeallocating: Bool {
        hold == .retainedPerCall && swift_isDeallocating(object.unsafelyUnwrapped.toOpaque())
    }

    /// Whether the target is gone or going: a dead weak reference, or a holder inside its deinit.
    var isGone: Bool { isDeadWeakReference || isDeallocating }

    init(_ target: Schema.Target, hold: Hold) {
        self.hold = hold
        if hold == .strong {
            stored = .allocate(capacity: 1)
            stored.initialize(to: target)
            object = nil
        } else {
            let (stored, object) = uncountedCopy(of: target)
            self.stored = stored
            self.object = object
            if hold == .weak { weakObject = object.takeUnretainedValue() }
        }
    }

    /// Whether `bag` is one of the bags whose deallocation ends the registration.
    func isOwned(by bag: RegistrationBag) -> Bool {
        self.bag === bag || otherOwners?.pointee.contains { $0.bag === bag } == true
    }

    /// Makes `bag` one more bag whose deallocation ends the registration, once the last of them goes; `end` runs
    /// when it is deallocated.
    func addOwner(_ bag: RegistrationBag, endedBy end: __owned @escaping () -> Void) {
        if self.bag == nil {
            self.bag = bag
        } else if let otherOwners {
            otherOwners.pointee.append(Owner(bag: bag))
        } else {
            otherOwners = .allocate(capacity: 1)
            otherOwners!.initialize(to: [Owner(bag: bag)])
        }
        bag.insert(ObjectIdentifier(self), endedBy: end)
    }

    /// An owner's bag is being deallocated: forgets it, and answers whether it was the last.
    func ownerEnded() -> Bool {
        guard let otherOwners else { return true }
        otherOwners.pointee.removeAll { $0.bag == nil }
        return bag == nil && otherOwners.pointee.isEmpty
    }

    /// Stops delivery to this registration: its last bag is being deallocated.
    func deactivate() {
        isActive = false
    }

    deinit {
        // No list or dispatch holds the registration any more: its bags need not end it.
        bag?.remove(ObjectIdentifier(self))
        if let otherOwners {
            for owner in otherOwners.pointee { owner.bag?.remove(ObjectIdentifier(self)) }
            otherOwners.deinitialize(count: 1)
            otherOwners.deallocate()
        }
        // An owned target is released; a reference that was given back is not.
        if hold == .strong { stored.deinitialize(count: 1) }
        stored.deallocate()
    }
}

/// A copy of `target` in memory of its own, whose reference count was given back: it does not keep the target
/// alive and is valid only while something else does. Returns the copy and the target's object.
///
/// - Precondition: `Target` is a class or a class-constrained existential (two conversions of `target` to
///   `AnyObject` give the same object, not two boxes: otherwise the count given back would be the box's).
internal func uncountedCopy<Target>(of target: Target) -> (
    stored: UnsafeMutablePointer<Target>, object: Unmanaged<AnyObject>
) {
    let object = target as AnyObject
    // Checked in every build (not a `precondition`, which `-Ounchecked` drops, and whose message `-O` drops): a
    // value's box, released below, would be freed while the copy still names it.
    guard object === target as AnyObject else {
        fatalError(
            "a target held without a count must be an object: \(Target.self) is not a class or class-constrained existential"
        )
    }
    let stored = UnsafeMutablePointer<Target>.allocate(capacity: 1)
    stored.initialize(to: target)
    let unmanaged = Unmanaged.passUnretained(object)
    unmanaged.release()  // the copy's reference, given back
    return (stored, unmanaged)
}
