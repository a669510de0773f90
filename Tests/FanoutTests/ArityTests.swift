import Fanout
import FanoutStatic
import FanoutScrollViewKit
import Testing

/// A protocol with messages of three and four arguments, one of them a pointer the target writes through, with
/// the answers people combine.
protocol DragObserver: AnyObject {
    func willEndDragging(_ name: String, velocity: Double, targetOffset: UnsafeMutablePointer<Double>)
    func shouldSnap(_ name: String, velocity: Double, to offset: Double) -> Bool
    func snapTarget(_ name: String, velocity: Double, from offset: Double, animated: Bool) -> Double?
    func didSnap(_ name: String, velocity: Double, to offset: Double, animated: Bool)
}

enum DragMessage: String, MessageKey {
    case willEndDragging = "willEndDragging:velocity:targetOffset:"
    case shouldSnap = "shouldSnap:velocity:to:"
    case snapTarget = "snapTarget:velocity:from:animated:"
    case didSnap = "didSnap:velocity:to:animated:"
}

enum DragSchema: DelegateSchema {
    typealias Target = any DragObserver
    typealias Key = DragMessage
    static var willEndDragging: Message<Self, (String, Double, UnsafeMutablePointer<Double>), Void> {
        .init(.willEndDragging) { $0.willEndDragging($1, velocity: $2, targetOffset: $3) }
    }
    static var shouldSnap: Message<Self, (String, Double, Double), Bool> {
        .init(.shouldSnap) { $0.shouldSnap($1, velocity: $2, to: $3) }
    }
    static var snapTarget: Message<Self, (String, Double, Double, Bool), Double?> {
        .init(.snapTarget) { $0.snapTarget($1, velocity: $2, from: $3, animated: $4) }
    }
    static var didSnap: Message<Self, (String, Double, Double, Bool), Void> {
        .init(.didSnap) { $0.didSnap($1, velocity: $2, to: $3, animated: $4) }
    }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(willEndDragging)
        visitor.visit(shouldSnap)
        visitor.visit(snapTarget)
        visitor.visit(didSnap)
    }
}

extension DragObserver where Self: Delivering, Schema == DragSchema {
    func willEndDragging(_ name: String, velocity: Double, targetOffset: UnsafeMutablePointer<Double>) {
        send(Schema.willEndDragging, name, velocity, targetOffset)
    }
    func shouldSnap(_ name: String, velocity: Double, to offset: Double) -> Bool {
        askAll(Schema.shouldSnap, name, velocity, offset)
    }
    func snapTarget(_ name: String, velocity: Double, from offset: Double, animated: Bool) -> Double? {
        askUntilAnswered(Schema.snapTarget, name, velocity, offset, animated)
    }
    func didSnap(_ name: String, velocity: Double, to offset: Double, animated: Bool) {
        send(Schema.didSnap, name, velocity, offset, animated)
    }
}

extension ExistentialArrayMultiplexer: DragObserver where Schema == DragSchema {}
extension ClosureTableMultiplexer: DragObserver where Schema == DragSchema {}
extension SelectorDictionaryMultiplexer: DragObserver where Schema == DragSchema {}
extension WeakArrayMultiplexer: DragObserver where Schema == DragSchema {}
extension LifetimeBoundMultiplexer: DragObserver where Schema == DragSchema {}
extension ConcurrentMultiplexer: DragObserver where Schema == DragSchema {}
extension StaticComposition: DragObserver where Schema == DragSchema {}

final class DragProbe: DragObserver {
    let id: Int
    var log: [String] = []
    var snaps = true
    var target: Double?

    init(_ id: Int) { self.id = id }

    func willEndDragging(_ name: String, velocity: Double, targetOffset: UnsafeMutablePointer<Double>) {
        log.append("\(id) willEnd \(name) \(velocity) \(targetOffset.pointee)")
        targetOffset.pointee += 10
    }
    func shouldSnap(_ name: String, velocity: Double, to offset: Double) -> Bool {
        log.append("\(id) shouldSnap \(name) \(velocity) \(offset)")
        return snaps
    }
    func snapTarget(_ name: String, velocity: Double, from offset: Double, animated: Bool) -> Double? {
        log.append("\(id) snapTarget \(name) \(velocity) \(offset) \(animated)")
        return target
    }
    func didSnap(_ name: String, velocity: Double, to offset: Double, animated: Bool) {
        log.append("\(id) didSnap \(name) \(velocity) \(offset) \(animated)")
    }
}

/// Messages of three and four arguments, sent apart, through every strategy and a static composition.
@Suite("Messages of three and four arguments")
struct ArityTests {
    static func multiplexer(_ strategy: DispatchStrategy) -> any DragObserver & Multiplexing<DragSchema> {
        switch strategy {
        case .existentialArray: ExistentialArrayMultiplexer<DragSchema>()
        case .closureTable: ClosureTableMultiplexer<DragSchema>()
        case .selectorDictionary: SelectorDictionaryMultiplexer<DragSchema>()
        case .weakArray: WeakArrayMultiplexer<DragSchema>()
        case .lifetimeBound: LifetimeBoundMultiplexer<DragSchema>()
        case .concurrent: ConcurrentMultiplexer<DragSchema>()
        }
    }

    @Test("every argument reaches every target, in order, and answers combine", arguments: DispatchStrategy.allCases)
    func deliveredApart(strategy: DispatchStrategy) {
        let observers = Self.multiplexer(strategy)
        let first = DragProbe(0), second = DragProbe(1)
        observers.add(first)
        observers.add(second)
        Self.exercise(observers, first, second)
    }

    @Test("sent through `any Multiplexing`, code generic over the schema, they arrive alike",
          arguments: DispatchStrategy.allCases)
    func deliveredThroughTheProtocol(strategy: DispatchStrategy) {
        let observers: any Multiplexing<DragSchema> = strategy.makeMultiplexer(for: DragSchema.self)
        let first = DragProbe(0), second = DragProbe(1)
        observers.add(first)
        observers.add(second)
        second.snaps = false
        #expect(!observers.askAll(DragSchema.shouldSnap, "list", 1, 3))
        #expect(first.log == ["0 shouldSnap list 1.0 3.0"] && second.log == ["1 shouldSnap list 1.0 3.0"])
        second.target = 40
        #expect(observers.askUntilAnswered(DragSchema.snapTarget, "list", 1, 3, true) == 40)
        observers.send(DragSchema.didSnap, "list", 0.5, 30, true)
        #expect(first.log.last == "0 didSnap list 0.5 30.0 true" && second.log.last == "1 didSnap list 0.5 30.0 true")
    }

    @Test("a static composition takes the same messages, as tuples")
    func staticComposition() {
        let first = DragProbe(0), second = DragProbe(1)
        let group = DragSchema.compose { first; second }
        Self.exercise(group, first, second)
    }

    static func exercise(_ observers: some DragObserver, _ first: DragProbe, _ second: DragProbe) {
        var offset = 5.0
        observers.willEndDragging("list", velocity: 2, targetOffset: &offset)
        #expect(offset == 25, "each target wrote through the pointer")
        #expect(first.log == ["0 willEnd list 2.0 5.0"])
        #expect(second.log == ["1 willEnd list 2.0 15.0"])

        second.snaps = false
        #expect(!observers.shouldSnap("list", velocity: 1, to: 3))
        #expect(first.log.last == "0 shouldSnap list 1.0 3.0" && second.log.last == "1 shouldSnap list 1.0 3.0")

        second.target = 40
        #expect(observers.snapTarget("list", velocity: 1, from: 3, animated: true) == 40)
        first.target = 30
        #expect(observers.snapTarget("list", velocity: 1, from: 3, animated: false) == 30)
        #expect(second.log.last == "1 snapTarget list 1.0 3.0 true", "the first answer stops the asking")

        observers.didSnap("list", velocity: 0.5, to: 30, animated: true)
        #expect(first.log.last == "0 didSnap list 0.5 30.0 true" && second.log.last == "1 didSnap list 0.5 30.0 true")
    }

    @Test("forwarded by name with three and four arguments, and refused with the wrong count")
    func forwardedByName() throws {
        let observers = SelectorDictionaryMultiplexer<DragSchema>()
        let probe = DragProbe(0)
        probe.target = 12
        observers.add(probe)
        #expect(try observers.forward("shouldSnap:velocity:to:", arguments: ["a", 1.0, 2.0]) as? [Bool] == [true])
        #expect(
            try observers.forward("snapTarget:velocity:from:animated:", arguments: ["a", 1.0, 2.0, true]) as? [Double]
                == [12])
        #expect(throws: ForwardingError.self) {
            try observers.forward("didSnap:velocity:to:animated:", arguments: ["a", 1.0, 2.0])
        }
    }
}
