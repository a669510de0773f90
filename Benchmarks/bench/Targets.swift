import Fanout
import ScrollViewKit
import Microbench

// The targets every dispatch case fans out to. Two concrete types, made by a
// factory the optimizer cannot see through, so that a multiplexer's calls stay
// indirect as they are for real delegates (MEASURING.md: an array of a single
// concrete type from one module gets devirtualized).

/// A behaviour that counts what it receives. `responds` decides whether it
/// implements the messages at all (the sparse case). Both target types are
/// `RegistrationHolder`s, so `lifetimeBound` binds them (the other strategies
/// ignore the bag).
final class TallyTarget: ScrollViewDelegate, RegistrationHolder {
    let registrations = RegistrationBag()
    var tally = 0
    let responds: Bool

    init(responds: Bool) { self.responds = responds }

    func responds(to message: ScrollViewMessage) -> Bool { responds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
}

/// A second target type with the same work, so call sites see two types.
final class OffsetTarget: ScrollViewDelegate, RegistrationHolder {
    let registrations = RegistrationBag()
    var lastOffset = 0.0
    var tally = 0
    let responds: Bool

    init(responds: Bool) { self.responds = responds }

    func responds(to message: ScrollViewMessage) -> Bool { responds }
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
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
    let stride = width / max(responders, 1)
    return (0..<width).map { makeTarget($0, responds: $0.isMultiple(of: stride) && $0 / stride < responders) }
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

    static let all = DispatchStrategy.allCases.map(Contender.strategy) + [.lifetimeBoundToOwner, .lifetimeBoundUnretained]

    /// The name in the CSV's `strategy` column.
    var name: String {
        switch self {
        case .strategy(let strategy): strategy.rawValue
        case .lifetimeBoundToOwner: "lifetimeBoundToOwner"
        case .lifetimeBoundUnretained: "lifetimeBoundUnretained"
        }
    }
}

/// An owner of behaviours, for `add(_:boundTo:)`.
final class BehaviorOwner: RegistrationHolder {
    let registrations = RegistrationBag()
}

/// A multiplexer of `contender`, hidden from the optimizer, holding a fan-out
/// of `width` targets of which `responders` respond. The caller keeps the
/// returned targets (and owner) alive, as an app owns its behaviours: the
/// weak strategies do not.
func makeFilledMultiplexer(
    _ contender: Contender, width: Int, responders: Int
) -> (multiplexer: any ScrollViewMultiplexer, targets: [any ScrollViewDelegate], owner: BehaviorOwner) {
    let targets = makeTargets(width: width, responders: responders)
    let owner = BehaviorOwner()
    switch contender {
    case .strategy(let strategy):
        let multiplexer = identity(strategy.makeMultiplexer())
        for target in targets { multiplexer.add(target) }
        return (multiplexer, targets, owner)
    case .lifetimeBoundToOwner:
        let multiplexer = identity(LifetimeBoundMultiplexer<ScrollViewSchema>())
        for target in targets { multiplexer.add(target, boundTo: owner) }
        return (multiplexer, targets, owner)
    case .lifetimeBoundUnretained:
        let multiplexer = identity(LifetimeBoundMultiplexer<ScrollViewSchema>())
        // Safe here: `targets` outlives every dispatch, and the targets release nothing.
        for target in targets { unsafe multiplexer.unsafeAddUnretained(target) }
        return (multiplexer, targets, owner)
    }
}

/// The floor's target: a concrete `final class` whose calls are static.
final class FloorTarget {
    var tally = 0
    func scrollViewDidScroll(_ scrollView: ScrollView) { tally &+= 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { tally &+= 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { tally &+= 1; return true }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? { tally &+= 1; return nil }
}
