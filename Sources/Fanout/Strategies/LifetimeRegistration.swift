import FanoutSupport

/// An object that owns registrations in ``LifetimeBoundMultiplexer``s through its ``RegistrationBag``: when it is
/// deallocated, the bag goes with it and ends every registration in it, as an Objective-C associated object would.
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
    /// The registrations in the bag and, at the same index, what ends each when the bag is deallocated: apart, so
    /// that a lookup copies no closure.
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
    @usableFromInline let registration: HeldTarget<Schema>
    /// The target of a registration bound to an owner (`.strong`), owned by the entry so that a dispatch calls it
    /// from the pinned buffer; `nil` for the others, whose targets the table must not keep alive.
    @usableFromInline var owned: Schema.Target?  // `var` only to be lent in place (`lend`); written by `init` alone
    /// The registration's ``HeldTarget/stored``, copied so that a dispatch reaches the target directly.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The registration's ``HeldTarget/hold``, copied likewise.
    @usableFromInline let hold: HeldTarget<Schema>.Hold

    init(_ registration: HeldTarget<Schema>, target: Schema.Target) {
        self.registration = registration
        hold = registration.hold
        owned = hold == .strong ? target : nil
        stored = registration.stored
    }

    var isDeadWeakReference: Bool { registration.isDeadWeakReference }
}

/// A registered target and how it is held (``Hold``): one registration of a ``LifetimeBoundMultiplexer``, or of a
/// ``WeakArrayMultiplexer`` (all `weak`).
@usableFromInline
internal final class HeldTarget<Schema: DelegateSchema> {
    /// How the registration holds its target.
    @usableFromInline
    internal enum Hold {
        /// Owned until the owner's bag ends the registration (``LifetimeBoundMultiplexer/add(_:boundTo:)``).
        case strong
        /// Stored without a reference count; called as is (``LifetimeBoundMultiplexer/unsafeAddUnretained(_:)``).
        case unretained
        /// Stored without a reference count; retained for each call (``LifetimeBoundMultiplexer/add(_:)``
        /// with a ``RegistrationHolder``), and ended by the holder's bag.
        case retainedPerCall
        /// Stored without a reference count; retained for each call, and dropped once the target is gone
        /// (``WeakArrayMultiplexer``, and ``LifetimeBoundMultiplexer/add(_:)`` with any other target).
        case weak
    }

    @usableFromInline let hold: Hold
    /// The target: owned for `strong`, otherwise an uncounted copy (``uncountedCopy(of:)``), valid while
    /// ``isActive`` or, for `weak`, while ``weakObject`` loads.
    @usableFromInline let stored: UnsafeMutablePointer<Schema.Target>
    /// The target as an object, for every hold but `strong`, through which a dispatch retains and releases it: no
    /// strong count; an unowned count for `retainedPerCall` and `weak`, except on the Objective-C runtime.
    @usableFromInline let object: Unmanaged<AnyObject>?
    #if _runtime(_ObjC)
        /// The target, for `retainedPerCall` and `weak`: it may be an Objective-C object, which has no Swift
        /// unowned count. Written once, by `init`, then read in place: no exclusivity check needed.
        @exclusivity(unchecked) @usableFromInline weak var weakObject: AnyObject?
    #endif
    /// Read on every delivery; written only by the same thread when the target dies: no exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline private(set) var isActive = true
    /// The bag whose deallocation ends the registration, if any: the holder's own for a holder bound to itself, the
    /// first owner's for a target bound to owners. Weak, so that a bag being deallocated reads `nil` here.
    weak var bag: RegistrationBag?

    /// The bags of the owners a target was bound to after the first, each loaded through a weak reference (`nil`
    /// once it is being deallocated): the registration ends when the last of ``bag`` and these goes. Allocated only
    /// for a second owner: a pointer, so that a registration with one owner or none pays no release for them.
    private var otherOwners: UnsafeMutablePointer<[() -> RegistrationBag?]>?

    #if DEBUG
        /// Calls to an `unretained` target on the stack, counted up and back down by nested dispatches, so that a
        /// deallocation inside any of them is caught.
        @exclusivity(unchecked) @usableFromInline var callsInFlight = 0
    #endif

    /// Whether this is a weak registration whose target's deinit has begun (others end when their bag goes).
    var isDeadWeakReference: Bool { hold == .weak && isGone }

    /// Whether a holder bound to its own lifetime is inside its deinit (its bag ends the registration after it).
    var isDeallocating: Bool { hold == .retainedPerCall && isGone }

    /// Whether the target of a `retainedPerCall` or `weak` registration is gone or going: its deinit has begun.
    var isGone: Bool {
        guard hold == .retainedPerCall || hold == .weak else { return false }
        #if _runtime(_ObjC)
            return weakObject == nil
        #else
            return swift_isDeallocating(object.unsafelyUnwrapped.toOpaque())
        #endif
    }

    // Calling a target no registration keeps alive (`retainedPerCall`, `weak`): it is never called once its deinit
    // has begun, and never freed while its call runs.
    //
    // - Its memory may be read from `init` until this registration is freed: `init` takes an unowned count, which
    //   keeps the memory (so its reference counts stay readable) but not the object, and `deinit` gives it back. A
    //   dead target's memory goes when its entry is dropped: at the end of a dispatch that finds it dead, by
    //   `count`, when its bag ends a holder's registration, or with the multiplexer.
    // - A dispatch calls the target only after `swift_tryRetain` succeeded, which it does only while the deinit has
    //   not begun, atomically: a release racing it on another thread either comes first (the target is skipped) or
    //   finds the +1 and frees nothing. The +1 is given back after the call returns, so a target whose callback
    //   drops its last other reference is deinitialized at that release, between two calls, with the table
    //   consistent, never inside its own callback.
    // - A target that dies during a dispatch, before its turn, is skipped and its entry dropped when the dispatch
    //   ends; a target's own deinit that sends a message finds it going and skips it.
    // - `stored`, the uncounted copy of the target, is read only while that +1 is held.
    //
    // On the Objective-C runtime `weakObject`'s weak load (a +1 too, or `nil` once the deinit began) stands in for
    // the unowned count and `swift_tryRetain`, with the same argument.

    /// Takes the +1 that keeps the target alive through one call, unless its deinit has begun; the caller gives it
    /// back through ``object`` after the call.
    ///
    /// - Precondition: `hold` is `retainedPerCall` or `weak`.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    func retainForCall() -> Bool {
        #if _runtime(_ObjC)
            guard let target = weakObject else { return false }
            _ = Unmanaged.passRetained(target)  // the weak load's +1, kept past `target`
            return true
        #else
            return swift_tryRetain(object.unsafelyUnwrapped.toOpaque()) != nil
        #endif
    }

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
            if hold != .unretained {
                #if _runtime(_ObjC)
                    weakObject = object.takeUnretainedValue()
                #else
                    _ = swift_unownedRetain(object.toOpaque())
                #endif
            }
        }
    }

    /// Whether `bag` is one of the bags whose deallocation ends the registration.
    func isOwned(by bag: RegistrationBag) -> Bool {
        self.bag === bag || otherOwners?.pointee.contains { $0() === bag } == true
    }

    /// Adds `bag` to the bags whose deallocation ends the registration, once the last goes; `end` runs when it goes.
    func addOwner(_ bag: RegistrationBag, endedBy end: __owned @escaping () -> Void) {
        if self.bag == nil {
            self.bag = bag
        } else if let otherOwners {
            otherOwners.pointee.append { [weak bag] in bag }
        } else {
            otherOwners = .allocate(capacity: 1)
            otherOwners!.initialize(to: [{ [weak bag] in bag }])
        }
        bag.insert(ObjectIdentifier(self), endedBy: end)
    }

    /// An owner's bag is being deallocated: forgets it, and answers whether it was the last.
    func ownerEnded() -> Bool {
        guard let otherOwners else { return true }
        otherOwners.pointee.removeAll { $0() == nil }
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
            for owner in otherOwners.pointee { owner()?.remove(ObjectIdentifier(self)) }
            otherOwners.deinitialize(count: 1)
            otherOwners.deallocate()
        }
        // An owned target is released; a reference that was given back is not, and an unowned count is given back
        // last (it may free a dead target's memory; nothing it runs is user code: the deinit ran already).
        if hold == .strong { stored.deinitialize(count: 1) }
        stored.deallocate()
        #if !_runtime(_ObjC)
            if hold == .retainedPerCall || hold == .weak { swift_unownedRelease(object.unsafelyUnwrapped.toOpaque()) }
        #endif
    }
}

extension Unmanaged {
    /// Calls, with `invoke`, the target of a registration not bound to an owner, retained for the call, or calls
    /// `ifGone` if it is gone; returns whether the dispatch goes on. The caller keeps the registration alive.
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    internal func callRetained<Schema, Result>(
        while shouldContinue: (Result) -> Bool, invoking invoke: (Schema.Target) -> Result, ifGone: () -> Void
    ) -> Bool where Instance == HeldTarget<Schema> {
        guard _withUnsafeGuaranteedRef({ $0.retainForCall() }) else {
            ifGone()
            return true
        }
        let stored = _withUnsafeGuaranteedRef { $0.stored }
        let proceed = shouldContinue(lend(&stored.pointee, to: invoke))
        _withUnsafeGuaranteedRef { $0.object.unsafelyUnwrapped }.release()  // the +1 of `retainForCall()`
        return proceed
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
    // Checked in every build, not by `precondition`: a value's box, released below, would be freed under the copy.
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
