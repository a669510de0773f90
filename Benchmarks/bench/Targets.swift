import Fanout
import FanoutMicrobench
import FanoutScrollViewKit
import FanoutGuideGlue

// The targets every dispatch case fans out to. Two concrete types, made by a
// factory the optimizer cannot see through, so that a multiplexer's calls stay
// indirect as they are for real delegates (an array of a single concrete type
// from one module gets devirtualized: whole-module optimization proves the
// call's target).

/// A behaviour that counts what it receives; `responds` decides whether it
/// implements the messages at all (the sparse case). The two target types
/// share these implementations, and each gets its own specialized witnesses
/// (a generic class instead cost 4 instructions per delivery, measured). Both
/// are `RegistrationHolder`s, so `lifetimeBound` binds them to their own
/// lifetime (the other strategies ignore the bag).
protocol CountingTarget: ScrollViewDelegate, RegistrationHolder {
    var tally: Int { get set }
    var responds: Bool { get }
}

extension CountingTarget {
    func responds(to message: ScrollViewMessage) -> Bool { responds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        tally &+= 1
        targetContentOffset.pointee = velocity
    }
}

/// The guide contender's targets: the same behaviour through `GuideScrollViewDelegate`, in two types of their own
/// whose counters sit at offsets that neither `TallyTarget`'s nor `OffsetTarget`'s does, so that no two types'
/// methods are the same code (merged, they would be reached through a jump thunk: 4 instructions per delivery).
protocol GuideCountingTarget: GuideScrollViewDelegate, RegistrationHolder {
    var tally: Int { get set }
    var responds: Bool { get }
}

extension GuideCountingTarget {
    func responds(to message: GuideMessage) -> Bool { responds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        tally &+= 1
        targetContentOffset.pointee = velocity
    }
}

/// The guide contender's first target type: its counter after one spare word.
final class GuideTallyTarget: GuideCountingTarget {
    let registrations = RegistrationBag(), responds: Bool
    let spare = 0
    var tally = 0
    init(responds: Bool) { self.responds = responds }
}

/// The guide contender's second target type: its counter after two spare words.
final class GuideOffsetTarget: GuideCountingTarget {
    let registrations = RegistrationBag(), responds: Bool
    let spare = 0, another = 0
    var tally = 0
    init(responds: Bool) { self.responds = responds }
}

/// The guide contender's target `index`: alternating types, as ``makeTarget(_:responds:)``.
@inline(never)
func makeGuideTarget(_ index: Int, responds: Bool) -> any GuideScrollViewDelegate {
    identity(index).isMultiple(of: 2) ? GuideTallyTarget(responds: responds) : GuideOffsetTarget(responds: responds)
}

/// The first target type.
final class TallyTarget: CountingTarget {
    var tally = 0
    let registrations = RegistrationBag(), responds: Bool
    init(responds: Bool) { self.responds = responds }
}

/// The second target type, so that call sites see two types. Its counter sits
/// at another offset on purpose: with identical layouts the compiler merges
/// the two types' identical methods into one function behind jump thunks, 4
/// more instructions per delivery.
final class OffsetTarget: CountingTarget {
    let registrations = RegistrationBag(), responds: Bool
    var tally = 0
    init(responds: Bool) { self.responds = responds }
}

/// Target `index` of a fan-out: alternating types; it responds when
/// `responds` is true.
@inline(never)
func makeTarget(_ index: Int, responds: Bool) -> any ScrollViewDelegate {
    identity(index).isMultiple(of: 2) ? TallyTarget(responds: responds) : OffsetTarget(responds: responds)
}

/// The targets of a fan-out of `width`, of which `responders` respond, spread
/// evenly (every `width / responders`-th target).
func makeTargets(width: Int, responders: Int) -> [any ScrollViewDelegate] {
    makeTargets(width: width, responders: responders, make: makeTarget)
}

/// The targets `make` makes for a fan-out of `width` of which `responders`
/// respond, spread evenly: every fan-out of the suite, whatever its protocol.
func makeTargets<Target>(width: Int, responders: Int, make: (Int, Bool) -> Target) -> [Target] {
    let stride = width / max(responders, 1)
    return (0..<width).map { make($0, $0.isMultiple(of: stride) && $0 / stride < responders) }
}

/// A target that does nothing, for dispatching from several threads at once
/// without the targets themselves racing.
final class QuietTarget: ScrollViewDelegate {}

/// What a dispatch case measures: a strategy, its targets registered with
/// `add`, or one of `lifetimeBound`'s other ways to register.
enum Contender: Hashable {
    case strategy(DispatchStrategy)
    /// `LifetimeBoundMultiplexer.add(_:boundTo:)`: every target held strongly until one owner goes.
    case lifetimeBoundToOwner
    /// `LifetimeBoundMultiplexer.unsafeAddUnretained(_:)`: holders called with no reference counting.
    case lifetimeBoundUnretained
    /// A strategy serving `GuideScrollViewDelegate`, whose glue is the guide's (the `GuideGlue` module).
    case guideGlue(DispatchStrategy)

    /// What the guide contender's names end with.
    static let guideGlueSuffix = "GuideGlue"

    static let all = DispatchStrategy.allCases.map(Contender.strategy) + [.lifetimeBoundToOwner, .lifetimeBoundUnretained]
        + DispatchStrategy.allCases.map(Contender.guideGlue)

    /// The name in the CSV's `strategy` column.
    var name: String {
        switch self {
        case .strategy(let strategy): strategy.rawValue
        case .lifetimeBoundToOwner: "lifetimeBoundToOwner"
        case .lifetimeBoundUnretained: "lifetimeBoundUnretained"
        case .guideGlue(let strategy): strategy.rawValue + Self.guideGlueSuffix
        }
    }
}

/// An owner of behaviours, for `add(_:boundTo:)`.
final class BehaviorOwner: RegistrationHolder {
    let registrations = RegistrationBag()
}

/// A multiplexer of `contender`, hidden from the optimizer, holding a fan-out
/// of `width` targets of which `responders` respond, and what keeps them
/// alive: the caller holds it as long as the multiplexer, as an app owns its
/// behaviours (the weak strategies do not).
func makeFilledMultiplexer(
    _ contender: Contender, width: Int, responders: Int
) -> (multiplexer: any ScrollViewMultiplexer, lifetime: (targets: [any ScrollViewDelegate], owner: BehaviorOwner)) {
    let targets = makeTargets(width: width, responders: responders)
    let owner = BehaviorOwner()
    switch contender {
    case .strategy(let strategy):
        let multiplexer = identity(strategy.makeMultiplexer())
        for target in targets { multiplexer.add(target) }
        return (multiplexer, (targets, owner))
    case .lifetimeBoundToOwner:
        let multiplexer = identity(LifetimeBoundMultiplexer<ScrollViewSchema>())
        for target in targets { multiplexer.add(target, boundTo: owner) }
        return (multiplexer, (targets, owner))
    case .lifetimeBoundUnretained:
        let multiplexer = identity(LifetimeBoundMultiplexer<ScrollViewSchema>())
        // Safe here: the caller keeps the targets alive through every dispatch, and they release nothing.
        for target in targets { unsafe multiplexer.unsafeAddUnretained(target) }
        return (multiplexer, (targets, owner))
    case .guideGlue:
        preconditionFailure("the guide's glue serves GuideScrollViewDelegate (makeFilledGuideMultiplexer)")
    }
}

/// A multiplexer of `strategy` with the guide's glue, hidden from the optimizer, holding the same fan-out as
/// ``makeFilledMultiplexer(_:width:responders:)``, through `GuideScrollViewDelegate`.
func makeFilledGuideMultiplexer(
    _ strategy: DispatchStrategy, width: Int, responders: Int
) -> (multiplexer: any GuideScrollViewDelegate, targets: [any GuideScrollViewDelegate]) {
    let targets = makeTargets(width: width, responders: responders, make: makeGuideTarget)
    let multiplexer = identity(strategy.makeMultiplexer(for: GuideSchema.self))
    for target in targets { multiplexer.add(target) }
    guard let delegate = multiplexer as? any GuideScrollViewDelegate else { preconditionFailure("no guide glue") }
    return (delegate, targets)
}
