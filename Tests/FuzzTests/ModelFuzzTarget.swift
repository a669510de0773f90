import Fanout
import ScrollViewKit

/// Fuzz target `model`: a program read from the bytes (targets that respond to
/// some messages, what each does inside each callback, then a sequence of
/// steps: add, remove, re-add, let go of a target, dispatch any message) runs
/// against every strategy and against ``DispatchModel``, a plain simulation
/// of the documented semantics. Their records must agree: who receives what,
/// in which order and at which nesting depth, the combined answers, and
/// `count` after every step. And no target may be deallocated while one of
/// its own callbacks is on the stack.
enum ModelFuzzTarget {
    static func run(_ data: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        let program = FuzzProgram(data)
        for strategy in DispatchStrategy.allCases {
            let real = RealRun(strategy: strategy, program: program).run()
            var model = DispatchModel(strategy: strategy, program: program)
            let expected = model.run()
            if real.events != expected {
                let index = zip(real.events, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(real.events.count, expected.count)
                findings.check(false, """
                    \(strategy): event \(index) is \(real.events.dropFirst(index).first.map { "\($0)" } ?? "missing"), \
                    the model expects \(expected.dropFirst(index).first.map { "\($0)" } ?? "nothing") \
                    (events before: \(expected.prefix(index).suffix(6)))
                    """)
            }
            findings.check(real.freedInsideOwnCallback.isEmpty, "\(strategy): freed inside own callback \(real.freedInsideOwnCallback)")
            if !findings.isEmpty { break }
        }
        return findings
    }
}

/// What a program does, read once from the fuzz bytes and run on every strategy.
struct FuzzProgram {
    /// What a target does inside one of its callbacks.
    enum Action: Equatable {
        case nothing
        case send(ScrollViewMessage)
        case add(Int)
        case remove(Int)
        /// The program lets go of its reference to the target.
        case letGo(Int)
    }

    struct TargetSpec {
        var responds: Set<ScrollViewMessage>
        /// A `RegistrationHolder` (what `lifetimeBound` binds to its lifetime).
        var isHolder: Bool
        var agrees: Bool
        var offersView: Bool
    }

    static let targetCount = 6
    /// Nested dispatches deeper than this are not sent.
    static let maximumDepth = 3
    static let maximumSteps = 64
    /// Reactions carried out per top-level step; later callbacks do nothing
    /// but record their delivery. Six targets sending from every callback
    /// three levels deep would otherwise make each step thousands of
    /// deliveries, and the fuzzer a hundred times slower.
    static let reactionsPerStep = 24

    var targets: [TargetSpec] = []
    /// `reactions[target][message.ordinal]`.
    var reactions: [[Action]] = []
    /// The top-level steps: actions other than `nothing`.
    var steps: [Action] = []

    init(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let messages = ScrollViewMessage.allCases
        for _ in 0..<Self.targetCount {
            let bits = input.byte()
            targets.append(TargetSpec(
                responds: Set(messages.filter { bits & (1 << $0.ordinal) != 0 }), isHolder: bits & 0x10 != 0,
                agrees: bits & 0x20 == 0, offersView: bits & 0x40 != 0))
        }
        for _ in 0..<Self.targetCount {
            reactions.append(messages.map { _ in
                let byte = input.byte()
                let operand = Int(byte >> 3)
                return switch byte % 8 {
                case 3: .send(messages[operand % messages.count])
                case 4: .add(operand % Self.targetCount)
                case 5: .remove(operand % Self.targetCount)
                case 6: .letGo(operand % Self.targetCount)
                default: .nothing
                }
            })
        }
        while !input.isAtEnd && steps.count < Self.maximumSteps {
            let byte = input.byte()
            let operand = Int(byte >> 3)
            let step: Action = switch byte % 8 {
            case 0, 1: .add(operand % Self.targetCount)
            case 2: .remove(operand % Self.targetCount)
            case 3: .letGo(operand % Self.targetCount)
            default: .send(messages[operand % messages.count])
            }
            steps.append(step)
        }
    }
}

/// One observable event of a run.
enum ModelEvent: Equatable, CustomStringConvertible {
    /// Target `target` received `message` at nesting depth `depth` (1 for a top-level send).
    case delivered(target: Int, message: ScrollViewMessage, depth: Int)
    /// A send of `message` returned `answer`: 1/0 for `true`/`false`, 1/0 for a view/`nil`, 0 for no answer.
    case answered(message: ScrollViewMessage, answer: Int)
    case count(Int)

    var description: String {
        switch self {
        case let .delivered(target, message, depth): "\(target).\(message)@\(depth)"
        case let .answered(message, answer): "\(message)->\(answer)"
        case let .count(count): "count=\(count)"
        }
    }
}

// MARK: - The real multiplexer

/// A target of the real run: records deliveries through the run and carries
/// out its reactions.
class ModelTarget: ScrollViewDelegate {
    let id: Int
    let spec: FuzzProgram.TargetSpec
    unowned let run: RealRun
    private(set) var callDepth = 0

    init(_ id: Int, spec: FuzzProgram.TargetSpec, run: RealRun) {
        self.id = id
        self.spec = spec
        self.run = run
    }

    deinit {
        if callDepth > 0 { run.freedInsideOwnCallback.append(id) }
    }

    func responds(to message: ScrollViewMessage) -> Bool { spec.responds.contains(message) }

    private func receive(_ message: ScrollViewMessage) {
        callDepth += 1
        defer { callDepth -= 1 }
        run.received(message, by: self)
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) { receive(.didScroll) }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { receive(.didEndDragging) }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        receive(.shouldScrollToTop)
        return spec.agrees
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        receive(.viewForZooming)
        return spec.offersView ? scrollView : nil
    }
}

final class ModelHolder: ModelTarget, RegistrationHolder {
    let registrations = RegistrationBag()
}

/// Runs a program against a real multiplexer.
final class RealRun {
    let program: FuzzProgram
    let multiplexer: any ScrollViewMultiplexer
    let view = ScrollView()
    /// The program's own references.
    var held: [ModelTarget?] = []
    var events: [ModelEvent] = []
    var freedInsideOwnCallback: [Int] = []
    var depth = 0
    var reactionsLeft = 0

    init(strategy: DispatchStrategy, program: FuzzProgram) {
        self.program = program
        multiplexer = strategy.makeMultiplexer()
    }

    func run() -> (events: [ModelEvent], freedInsideOwnCallback: [Int]) {
        held = program.targets.indices.map { id in
            program.targets[id].isHolder
                ? ModelHolder(id, spec: program.targets[id], run: self)
                : ModelTarget(id, spec: program.targets[id], run: self)
        }
        for step in program.steps {
            reactionsLeft = FuzzProgram.reactionsPerStep
            perform(step)
            events.append(.count(multiplexer.count))
        }
        for target in held.compactMap({ $0 }) { multiplexer.remove(target) }
        held.removeAll()
        return (events, freedInsideOwnCallback)
    }

    func received(_ message: ScrollViewMessage, by target: ModelTarget) {
        events.append(.delivered(target: target.id, message: message, depth: depth))
        guard reactionsLeft > 0 else { return }
        reactionsLeft -= 1
        perform(program.reactions[target.id][message.ordinal])
    }

    func perform(_ action: FuzzProgram.Action) {
        switch action {
        case .nothing: break
        case .send(let message):
            guard depth < FuzzProgram.maximumDepth else { return }
            depth += 1
            defer { depth -= 1 }
            let answer: Int
            switch message {
            case .didScroll: multiplexer.scrollViewDidScroll(view); answer = 0
            case .didEndDragging: multiplexer.scrollViewDidEndDragging(view, willDecelerate: true); answer = 0
            case .shouldScrollToTop: answer = multiplexer.scrollViewShouldScrollToTop(view) ? 1 : 0
            case .viewForZooming: answer = multiplexer.viewForZooming(in: view) == nil ? 0 : 1
            }
            events.append(.answered(message: message, answer: answer))
        case .add(let id): if let target = held[id] { multiplexer.add(target) }
        case .remove(let id): if let target = held[id] { multiplexer.remove(target) }
        case .letGo(let id): held[id] = nil
        }
    }
}

// MARK: - The model

/// The documented semantics, simulated with plain arrays: delivery in
/// registration order to the targets that respond; a dispatch reaches the
/// targets registered when it began; `shouldScrollToTop` is the AND of every
/// answer, `viewForZooming` the first non-`nil` one; the strong strategies
/// keep targets until removed, the weak ones never keep a target alive, and a
/// target whose last reference is gone receives nothing more. A target is
/// alive while the program holds it or while one of its callbacks runs.
struct DispatchModel {
    let strategy: DispatchStrategy
    let program: FuzzProgram
    /// Registered targets, in order.
    var registered: [Int] = []
    var held: [Bool]
    var callDepth: [Int]
    var events: [ModelEvent] = []
    var depth = 0
    var reactionsLeft = 0

    init(strategy: DispatchStrategy, program: FuzzProgram) {
        self.strategy = strategy
        self.program = program
        held = Array(repeating: true, count: program.targets.count)
        callDepth = Array(repeating: 0, count: program.targets.count)
    }

    func isAlive(_ id: Int) -> Bool { held[id] || callDepth[id] > 0 }

    mutating func run() -> [ModelEvent] {
        for step in program.steps {
            reactionsLeft = FuzzProgram.reactionsPerStep
            perform(step)
            events.append(.count(registered.count))
        }
        return events
    }

    /// A weakly held target whose last reference went leaves the registrations.
    mutating func noteReferenceGone(_ id: Int) {
        if !strategy.holdsTargetsStrongly && !isAlive(id) { registered.removeAll { $0 == id } }
    }

    mutating func perform(_ action: FuzzProgram.Action) {
        switch action {
        case .nothing: break
        case .send(let message):
            guard depth < FuzzProgram.maximumDepth else { return }
            depth += 1
            defer { depth -= 1 }
            events.append(.answered(message: message, answer: send(message)))
        case .add(let id): if held[id] && !registered.contains(id) { registered.append(id) }
        case .remove(let id): if held[id] { registered.removeAll { $0 == id } }
        case .letGo(let id):
            held[id] = false
            noteReferenceGone(id)
        }
    }

    mutating func send(_ message: ScrollViewMessage) -> Int {
        let snapshot = registered.filter { program.targets[$0].responds.contains(message) }
        var agreed = true
        for id in snapshot {
            if !strategy.holdsTargetsStrongly && !isAlive(id) { continue }
            events.append(.delivered(target: id, message: message, depth: depth))
            callDepth[id] += 1
            if reactionsLeft > 0 {
                reactionsLeft -= 1
                perform(program.reactions[id][message.ordinal])
            }
            callDepth[id] -= 1
            noteReferenceGone(id)
            let spec = program.targets[id]
            switch message {
            case .shouldScrollToTop: agreed = agreed && spec.agrees
            case .viewForZooming where spec.offersView: return 1
            default: break
            }
        }
        return message == .shouldScrollToTop ? (agreed ? 1 : 0) : 0
    }
}
