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

/// A target held weakly, loaded with no closure, cast or exclusivity check: a weak reference to the target's
/// object, beside an uncounted copy of the target (``uncountedCopy(of:)``).
///
/// A dispatch loads `object` (a strong reference, +1) and uses `stored` only while it holds that reference,
/// until the call returns: so the copy is never used once the target's deinit has begun, and the target cannot
/// be freed while its call runs, whatever the call does.
@usableFromInline
internal final class WeakTarget<Target> {
    /// The target's object. Written once, by `init`, then read in place: no exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline
    internal weak var object: AnyObject?

    /// The target, not counted: valid while `object` loads.
    @usableFromInline
    internal let stored: UnsafeMutablePointer<Target>

    internal init(_ target: Target) {
        let (stored, object) = uncountedCopy(of: target)
        self.stored = stored
        self.object = object.takeUnretainedValue()
    }

    /// Whether the target has been deallocated (or its deinit has begun).
    internal var isDead: Bool { object == nil }

    deinit {
        // Not deinitialized: its reference was given back.
        stored.deallocate()
    }
}
