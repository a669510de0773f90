import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// `arity`: one message of two, three and four arguments (a reference, a value and, for three and four, a pointer a
/// target may write through, as `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` has), sent with
/// each argument apart through a schema's glue, to `width` targets that all respond; and the same messages through
/// the schema-free form (`<strategy>SchemaFree`: a class of one's own over `Targets<any ArityObserver>`, one
/// `forEach` per message, written once generic over `TargetMultiplexing` and specialized per strategy). The gate
/// also counts the allocations and ARC calls of a class generic over the strategy set as the delegate
/// (`<strategy>SchemaFreeGeneric`), whose methods run unspecialized. What a message's arguments cost (a tuple of them would copy the reference in, a retain and a
/// release per message), and what the schema-free form costs against the schema's.
enum ArityFamily: BenchmarkFamily {
    static let strategies: [Contender] = [
        .strategy(.existentialArray), .strategy(.closureTable), .strategy(.selectorDictionary), .lifetimeBoundToOwner,
        .strategy(.concurrent), .strategy(.weakArray),
    ]
    /// The strategies whose targets need no key, in every form.
    static let schemaFreeStrategies: [Contender] = [
        .strategy(.existentialArray), .lifetimeBoundToOwner, .strategy(.concurrent), .strategy(.weakArray),
    ]

    /// How a message reaches the strategy: the schema's glue, a class of one's own specialized for the strategy, or a
    /// class generic over it set as the delegate.
    enum Form: String, CaseIterable {
        case schema = ""
        case schemaFree = "SchemaFree"
        case schemaFreeGeneric = "SchemaFreeGeneric"

        /// The strategies measured in this form.
        var strategies: [Contender] { self == .schema ? ArityFamily.strategies : ArityFamily.schemaFreeStrategies }
    }

    static let contenders = Form.allCases.flatMap { form in form.strategies.map { $0.name + form.rawValue } }
    /// `twoValues` is `twoArguments` without the reference: a target read by value is copied around a call only when
    /// a reference is among its arguments (the notebook's sections 55, 60 and 62; every strategy now lends or borrows
    /// it instead), which these two cases show side by side.
    static let messages = ["twoArguments", "threeArguments", "fourArguments", "twoValues"]

    /// The gate's cases but the generic class's, and the same at width 4 for the run's figures.
    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return cases(atWidths: [1, 4, 16].filter(selection.widths.contains), forms: [.schema, .schemaFree])
    }

    /// Every form, strategy and message at widths 1 and 16: what the gate counts.
    static var gateCases: [BenchmarkCase] { cases(atWidths: [1, 16], forms: Form.allCases) }

    /// Every arity case, published: the README compares the schema-free form with the schema form by them.
    static func isRepeated(_ id: CaseID) -> Bool { id.benchmark == "arity" }
    static func isPublished(_ id: CaseID, _ selection: Selection) -> Bool { id.benchmark == "arity" }

    /// Every strategy of `forms` and message at each of `widths`.
    static func cases(atWidths widths: [Int], forms: [Form]) -> [BenchmarkCase] {
        forms.flatMap { form in
            form.strategies.flatMap { strategy in
                messages.flatMap { message in widths.map { arityCase(strategy, message, width: $0, form: form) } }
            }
        }
    }

    /// The schema-free form against the schema form: each strategy's range over the messages and widths measured.
    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let byID = rows.byID("arity")
        let ratios = schemaFreeStrategies.compactMap { contender -> String? in
            let values = byID.values.compactMap { row -> Double? in
                guard row.strategy == contender.name + Form.schemaFree.rawValue else { return nil }
                let schemaForm = CaseID(
                    benchmark: "arity", strategy: contender.name, message: row.message, width: row.width,
                    responders: row.responders)
                return byID[schemaForm].map { row.nanosecondsPerDelivery / $0.nanosecondsPerDelivery }
            }
            guard let low = values.min(), let high = values.max() else { return nil }
            return "\(contender.name) \(Report.fixed(low, decimals: 2))–\(Report.fixed(high, decimals: 2))"
        }
        guard !ratios.isEmpty else { return [] }
        let widths = Array(Set(byID.keys.map(\.width))).sorted().map(String.init).joined(separator: ", ")
        return [
            "schema-free form ÷ schema form (Targets<any P> through TargetMultiplexing, ns per delivery, widths \(widths), "
                + "\(messages.count) messages): " + ratios.joined(separator: ", ")
        ]
    }

    /// `arity/<strategy><form>/<message>/<width>/<width>`.
    static func arityCase(_ contender: Contender, _ message: String, width: Int, form: Form = .schema) -> BenchmarkCase {
        let id = CaseID(
            benchmark: "arity", strategy: contender.name + form.rawValue, message: message, width: width,
            responders: width)
        var arityCase = BenchmarkCase(id, deliveriesPerOperation: width) {
            let owner = BehaviorOwner()
            let targets: [any ArityObserver] = (0..<width).map { _ in ArityTarget() }
            let observer: any ArityObserver
            switch form {
            case .schema: observer = identity(makeArityMultiplexer(contender, targets, owner: owner))
            case .schemaFree: observer = identity(makeSchemaFreeObservers(contender, targets, owner: owner))
            case .schemaFreeGeneric: observer = identity(makeGenericObservers(contender, targets, owner: owner))
            }
            let view = ScrollView()
            var offset = 0.0
            let send: (Int) -> Void
            switch message {
            case "twoArguments":
                send = { iterations in for _ in 0..<iterations { observer.moved(view, by: 1) } }
            case "twoValues":
                send = { iterations in for _ in 0..<iterations { observer.scrolled(by: 1, animated: true) } }
            case "threeArguments":
                send = { iterations in
                    for _ in 0..<iterations { observer.willEnd(view, velocity: 1, target: &offset) }
                    blackHole(offset)
                }
            default:
                send = { iterations in
                    for _ in 0..<iterations { observer.willEnd(view, velocity: 1, target: &offset, animated: true) }
                    blackHole(offset)
                }
            }
            return { iterations in withExtendedLifetime(targets) { withExtendedLifetime(owner) { send(iterations) } } }
        }
        // Unspecialized, the generic class's instructions depend on the runtime's caches, which what else the process
        // ran has filled: its allocations and ARC calls are gated, not its instructions.
        arityCase.countsInstructions = form != .schemaFreeGeneric
        return arityCase
    }
}

/// A protocol whose messages take two, three and four arguments.
protocol ArityObserver: AnyObject {
    func moved(_ view: ScrollView, by distance: Double)
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>)
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>, animated: Bool)
    func scrolled(by distance: Double, animated: Bool)
}

enum ArityMessage: String, MessageKey {
    case moved = "moved:by:"
    case willEnd = "willEnd:velocity:target:"
    case willEndAnimated = "willEnd:velocity:target:animated:"
    case scrolled = "scrolledBy:animated:"
}

/// The schema, glued as the guide teaches: a key, a descriptor and a `visitMessages` line per message.
enum AritySchema: DelegateSchema {
    typealias Target = any ArityObserver
    typealias Key = ArityMessage
    @inlinable static var moved: Message<Self, (ScrollView, Double), Void> { .init(.moved) { $0.moved($1, by: $2) } }
    @inlinable static var willEnd: Message<Self, (ScrollView, Double, UnsafeMutablePointer<Double>), Void> {
        .init(.willEnd) { $0.willEnd($1, velocity: $2, target: $3) }
    }
    @inlinable
    static var willEndAnimated: Message<Self, (ScrollView, Double, UnsafeMutablePointer<Double>, Bool), Void> {
        .init(.willEndAnimated) { $0.willEnd($1, velocity: $2, target: $3, animated: $4) }
    }
    @inlinable static var scrolled: Message<Self, (Double, Bool), Void> {
        .init(.scrolled) { $0.scrolled(by: $1, animated: $2) }
    }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(moved)
        visitor.visit(willEnd)
        visitor.visit(willEndAnimated)
        visitor.visit(scrolled)
    }
}

extension ArityObserver where Self: Delivering, Schema == AritySchema {
    @inline(__always) func moved(_ view: ScrollView, by distance: Double) { send(Schema.moved, view, distance) }
    @inline(__always) func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>) {
        send(Schema.willEnd, view, velocity, target)
    }
    @inline(__always) func willEnd(
        _ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>, animated: Bool
    ) { send(Schema.willEndAnimated, view, velocity, target, animated) }
    @inline(__always) func scrolled(by distance: Double, animated: Bool) { send(Schema.scrolled, distance, animated) }
}

extension ExistentialArrayMultiplexer: ArityObserver where Schema == AritySchema {}
extension ClosureTableMultiplexer: ArityObserver where Schema == AritySchema {}
extension SelectorDictionaryMultiplexer: ArityObserver where Schema == AritySchema {}
extension LifetimeBoundMultiplexer: ArityObserver where Schema == AritySchema {}
extension ConcurrentMultiplexer: ArityObserver where Schema == AritySchema {}
extension WeakArrayMultiplexer: ArityObserver where Schema == AritySchema {}

/// The schema-free form as an app writes it: a class of its own, set as the delegate, whose every method is one
/// `forEach` over a multiplexer of `Targets<any ArityObserver>`. The methods are written once, generic over the
/// strategy (`TargetMultiplexing`), and each class below names its strategy, so that its witnesses are specialized
/// for it, as an app's are (the guide's "Generic over the strategy").
protocol ArityObservers: ArityObserver {
    associatedtype Observers: TargetMultiplexing<any ArityObserver>
    var observers: Observers { get }
    init()
}

extension ArityObservers {
    @inline(__always) func moved(_ view: ScrollView, by distance: Double) {
        observers.forEach { $0.moved(view, by: distance) }
    }
    @inline(__always) func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>) {
        observers.forEach { $0.willEnd(view, velocity: velocity, target: target) }
    }
    @inline(__always) func willEnd(
        _ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>, animated: Bool
    ) { observers.forEach { $0.willEnd(view, velocity: velocity, target: target, animated: animated) } }
    @inline(__always) func scrolled(by distance: Double, animated: Bool) {
        observers.forEach { $0.scrolled(by: distance, animated: animated) }
    }
}

final class ExistentialArrayArityObservers: ArityObservers {
    let observers = ExistentialArrayMultiplexer<Targets<any ArityObserver>>()
}
final class LifetimeBoundArityObservers: ArityObservers {
    let observers = LifetimeBoundMultiplexer<Targets<any ArityObserver>>()
}
final class ConcurrentArityObservers: ArityObservers {
    let observers = ConcurrentMultiplexer<Targets<any ArityObserver>>()
}
final class WeakArrayArityObservers: ArityObservers {
    let observers = WeakArrayMultiplexer<Targets<any ArityObserver>>()
}

/// The schema-free form of `contender` over `targets`, as an `any ArityObserver`.
func makeSchemaFreeObservers(
    _ contender: Contender, _ targets: [any ArityObserver], owner: BehaviorOwner
) -> any ArityObserver {
    func filled<Forwarder: ArityObservers>(_ type: Forwarder.Type) -> Forwarder {
        let forwarder = Forwarder()
        for target in targets { forwarder.observers.add(target) }
        return forwarder
    }
    switch contender {
    case .strategy(.existentialArray): return filled(ExistentialArrayArityObservers.self)
    case .strategy(.concurrent): return filled(ConcurrentArityObservers.self)
    case .strategy(.weakArray): return filled(WeakArrayArityObservers.self)
    case .lifetimeBoundToOwner:
        let forwarder = LifetimeBoundArityObservers()
        for target in targets { forwarder.observers.add(target, boundTo: owner) }
        return forwarder
    default:
        preconditionFailure("the schema-free form is measured for \(ArityFamily.schemaFreeStrategies.map(\.name))")
    }
}

/// The schema-free form as an app writes it to try several strategies: one class generic over the strategy, set as
/// the delegate. Called through the protocol, its methods run unspecialized: each delivers through the library's
/// witness of `TargetMultiplexing`, code generic over the schema.
final class GenericArityObservers<Observers: TargetMultiplexing<any ArityObserver>>: ArityObserver {
    let observers = Observers()

    func moved(_ view: ScrollView, by distance: Double) { observers.forEach { $0.moved(view, by: distance) } }
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>) {
        observers.forEach { $0.willEnd(view, velocity: velocity, target: target) }
    }
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>, animated: Bool) {
        observers.forEach { $0.willEnd(view, velocity: velocity, target: target, animated: animated) }
    }
    func scrolled(by distance: Double, animated: Bool) {
        observers.forEach { $0.scrolled(by: distance, animated: animated) }
    }
}

/// The generic class of `contender` over `targets`, as an `any ArityObserver`.
func makeGenericObservers(_ contender: Contender, _ targets: [any ArityObserver], owner: BehaviorOwner) -> any ArityObserver {
    func filled<Observers>(_ type: Observers.Type) -> GenericArityObservers<Observers> {
        let forwarder = GenericArityObservers<Observers>()
        for target in targets { forwarder.observers.add(target) }
        return forwarder
    }
    switch contender {
    case .strategy(.existentialArray): return filled(ExistentialArrayMultiplexer<Targets<any ArityObserver>>.self)
    case .strategy(.concurrent): return filled(ConcurrentMultiplexer<Targets<any ArityObserver>>.self)
    case .strategy(.weakArray): return filled(WeakArrayMultiplexer<Targets<any ArityObserver>>.self)
    case .lifetimeBoundToOwner:
        let forwarder = GenericArityObservers<LifetimeBoundMultiplexer<Targets<any ArityObserver>>>()
        for target in targets { forwarder.observers.add(target, boundTo: owner) }
        return forwarder
    default:
        preconditionFailure("the schema-free form is measured for \(ArityFamily.schemaFreeStrategies.map(\.name))")
    }
}

/// A target that writes through the pointer it is given, so that no call is dead.
final class ArityTarget: ArityObserver {
    var moved = 0.0

    func moved(_ view: ScrollView, by distance: Double) { moved += distance }
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>) {
        target.pointee += velocity
    }
    func willEnd(_ view: ScrollView, velocity: Double, target: UnsafeMutablePointer<Double>, animated: Bool) {
        if animated { target.pointee += velocity }
    }
    func scrolled(by distance: Double, animated: Bool) { if animated { moved += distance } }
}

/// A multiplexer of `contender` over `targets`, as an `any ArityObserver` (a host calls its delegate so).
func makeArityMultiplexer(
    _ contender: Contender, _ targets: [any ArityObserver], owner: BehaviorOwner
) -> any ArityObserver {
    switch contender {
    case .strategy(let strategy):
        let multiplexer = strategy.makeMultiplexer(for: AritySchema.self)
        for target in targets { multiplexer.add(target) }
        return multiplexer as! any ArityObserver  // each strategy's conformance line is above
    case .lifetimeBoundToOwner:
        let multiplexer = LifetimeBoundMultiplexer<AritySchema>()
        for target in targets { multiplexer.add(target, boundTo: owner) }
        return multiplexer
    default:
        preconditionFailure("arity measures \(ArityFamily.contenders)")
    }
}
