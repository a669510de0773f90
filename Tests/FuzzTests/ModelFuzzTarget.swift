import Fanout
import FanoutScrollViewKit

/// Fuzz target `model`: a program read from the bytes (targets that respond to
/// some messages, what each does inside each callback and in its deinit, then
/// a sequence of steps: add, remove, re-add, let go of a target, dispatch any
/// message) runs against every strategy and against ``DispatchModel``, a plain
/// simulation of the documented semantics that counts the references each
/// strategy holds, and so knows when each target is freed. Their records must
/// agree: who receives what, in which order and at which nesting depth, the
/// combined answers, which target is freed when, what a deinit reads, and
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
    /// What a target does inside one of its callbacks, or in its deinit.
    enum Action: Equatable {
        case nothing
        case send(ScrollViewMessage)
        case add(Int)
        case remove(Int)
        /// The program lets go of its reference to the target.
        case letGo(Int)
        /// In a deinit: the dying target removes itself.
        case removeSelf
        /// In a deinit: `count` is read and recorded.
        case readCount
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
    /// What each target's deinit does with the multiplexer, through a weak
    /// reference.
    var deinitActions: [Action] = []
    /// The top-level steps: actions other than `nothing`.
    var steps: [Action] = []

    /// The bit of a target's first byte that says it responds to the message of each ordinal (0x10, 0x20 and 0x40
    /// say other things).
    static let respondsBits: [UInt8] = [0x01, 0x02, 0x04, 0x08, 0x80]

    init(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let messages = ScrollViewMessage.allCases
        for _ in 0..<Self.targetCount {
            let bits = input.byte()
            targets.append(TargetSpec(
                responds: Set(messages.filter { bits & Self.respondsBits[$0.ordinal] != 0 }), isHolder: bits & 0x10 != 0,
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
        for _ in 0..<Self.targetCount {
            let byte = input.byte()
            let operand = Int(byte >> 3)
            let action: Action = switch byte % 8 {
            case 2: .send(messages[operand % messages.count])
            case 3: .add(operand % Self.targetCount)
            case 4: .remove(operand % Self.targetCount)
            case 5: .removeSelf
            case 6: .readCount
            case 7: .letGo(operand % Self.targetCount)
            default: .nothing
            }
            deinitActions.append(action)
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
    /// Target `target` was deallocated (its deinit then does its action).
    case freed(target: Int)

    var description: String {
        switch self {
        case let .delivered(target, message, depth): "\(target).\(message)@\(depth)"
        case let .answered(message, answer): "\(message)->\(answer)"
        case let .count(count): "count=\(count)"
        case let .freed(target): "freed \(target)"
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
    /// The run, for the deinit's action: `nil` once the run is being torn
    /// down (its multiplexer frees the targets it still holds).
    weak var owner: RealRun?
    private(set) var callDepth = 0

    init(_ id: Int, spec: FuzzProgram.TargetSpec, run: RealRun) {
        self.id = id
        self.spec = spec
        self.run = run
        owner = run
    }

    deinit {
        if callDepth > 0 { run.freedInsideOwnCallback.append(id) }
        if let owner, owner.isRecording { owner.died(self) }
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
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        receive(.willEndDragging)
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
    /// Whether deaths are recorded and deinits act: during the steps only.
    var isRecording = false

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
        isRecording = true
        for step in program.steps {
            reactionsLeft = FuzzProgram.reactionsPerStep
            perform(step)
            events.append(.count(multiplexer.count))
        }
        isRecording = false
        for target in held.compactMap({ $0 }) { multiplexer.remove(target) }
        held.removeAll()
        return (events, freedInsideOwnCallback)
    }

    /// `target`'s deinit: records the death, then does the target's deinit action.
    func died(_ target: ModelTarget) {
        events.append(.freed(target: target.id))
        switch program.deinitActions[target.id] {
        case .removeSelf: multiplexer.remove(target)
        case .readCount: events.append(.count(multiplexer.count))
        case let action: perform(action)
        }
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
            case .willEndDragging:
                var offset = 0.0
                multiplexer.scrollViewWillEndDragging(view, withVelocity: 1, targetContentOffset: &offset)
                answer = 0
            }
            events.append(.answered(message: message, answer: answer))
        case .add(let id): if let target = held[id] { multiplexer.add(target) }
        case .remove(let id): if let target = held[id] { multiplexer.remove(target) }
        case .letGo(let id):
            // Released after the array's access: the deinit may let go of another target.
            let released = held[id]
            held[id] = nil
            withExtendedLifetime(released) {}
        case .removeSelf, .readCount: break
        }
    }
}

// MARK: - The model

/// The documented semantics, simulated with plain arrays and counted
/// references: delivery in registration order to the targets that respond; a
/// dispatch reaches the targets registered when it began;
/// `shouldScrollToTop` is the AND of every answer, `viewForZooming` the first
/// non-`nil` one. A target is freed when its last strong reference goes, and
/// the model counts who holds one: the program; for the weak strategies, each
/// of the target's callbacks on the stack; for the strong ones, each buffer
/// that holds it (the current registrations, and those that a change replaced
/// while a dispatch read them, until they are freed: by the last dispatch
/// that read them for the pinned strategies, by the last dispatch in flight
/// for `concurrent`). A freed target's deinit does its action; a weakly held
/// one leaves the registrations first.
struct DispatchModel {
    /// How a strategy holds its targets.
    enum Family {
        /// Weakly (`weakArray`, `lifetimeBound` with `add(_:)`): alive while
        /// the program holds it or one of its callbacks runs.
        case weak
        /// In one pinned table (`existentialArray`).
        case table
        /// In one pinned list per message (the closure strategies): a target
        /// that responds to nothing is registered and held by no list.
        case lists
        /// In published snapshots, freed when no dispatch is in flight (`concurrent`).
        case snapshots
    }

    /// A buffer that dispatches read, as `PinnedArray` keeps it.
    struct Pinned {
        var current: [Int] = []
        var pins = 0
        var retired: [(members: [Int], pins: Int)] = []
    }

    let strategy: DispatchStrategy
    let family: Family
    let program: FuzzProgram
    /// Registered targets, in order.
    var registered: [Int] = []
    var held: [Bool]
    var callDepth: [Int]
    var references: [Int]
    /// The pinned buffers: one (`table`), or one per message ordinal (`lists`).
    var pinned: [Pinned]
    /// `concurrent`'s snapshots replaced and not yet freed, and its readers.
    var retiredSnapshots: [[Int]] = []
    var readers = 0
    var events: [ModelEvent] = []
    var depth = 0
    var reactionsLeft = 0

    init(strategy: DispatchStrategy, program: FuzzProgram) {
        self.strategy = strategy
        self.program = program
        family = switch strategy {
        case .weakArray, .lifetimeBound: .weak
        case .existentialArray: .table
        case .closureTable, .selectorDictionary: .lists
        case .concurrent: .snapshots
        }
        held = Array(repeating: true, count: program.targets.count)
        callDepth = Array(repeating: 0, count: program.targets.count)
        references = Array(repeating: 1, count: program.targets.count)
        pinned = Array(repeating: Pinned(), count: family == .lists ? ScrollViewMessage.allCases.count : 1)
    }

    mutating func run() -> [ModelEvent] {
        for step in program.steps {
            reactionsLeft = FuzzProgram.reactionsPerStep
            perform(step)
            events.append(.count(registered.count))
        }
        return events
    }

    // MARK: References

    mutating func release(_ id: Int) {
        references[id] -= 1
        if references[id] == 0 { died(id) }
    }

    /// A freed buffer releases its members in order.
    mutating func release(buffer: [Int]) {
        for id in buffer { release(id) }
    }

    mutating func died(_ id: Int) {
        if family == .weak { registered.removeAll { $0 == id } }
        events.append(.freed(target: id))
        switch program.deinitActions[id] {
        case .removeSelf: registered.removeAll { $0 == id }
        case .readCount: events.append(.count(registered.count))
        case let action: perform(action)
        }
    }

    /// The pinned buffers that hold `id`'s registration: the table, or the
    /// list of each message it responds to.
    func buffers(of id: Int) -> [Int] {
        switch family {
        case .table: [0]
        case .lists: ScrollViewMessage.allCases.filter { program.targets[id].responds.contains($0) }.map(\.ordinal)
        case .weak, .snapshots: []
        }
    }

    /// Changes pinned buffer `index` with `change`: a buffer a dispatch pins
    /// is retired first, and the change made to a copy, which retains every
    /// member.
    mutating func change(_ index: Int, _ change: (inout [Int]) -> Void) {
        if pinned[index].pins > 0 {
            pinned[index].retired.append((pinned[index].current, pinned[index].pins))
            pinned[index].pins = 0
            for id in pinned[index].current { references[id] += 1 }
        }
        change(&pinned[index].current)
    }

    /// `concurrent`'s change: a copy of the registrations, published; the
    /// snapshot it replaces is freed at once when no dispatch is in flight.
    mutating func changeSnapshot(_ change: (inout [Int]) -> Void) {
        retiredSnapshots.append(registered)
        for id in registered { references[id] += 1 }
        change(&registered)
        if readers == 0 { freeSnapshots() }
    }

    mutating func freeSnapshots() {
        let freed = retiredSnapshots
        retiredSnapshots = []
        for buffer in freed { release(buffer: buffer) }
    }

    // MARK: The program

    mutating func perform(_ action: FuzzProgram.Action) {
        switch action {
        case .nothing, .removeSelf, .readCount: break
        case .send(let message):
            guard depth < FuzzProgram.maximumDepth else { return }
            depth += 1
            defer { depth -= 1 }
            events.append(.answered(message: message, answer: send(message)))
        case .add(let id): add(id)
        case .remove(let id): remove(id)
        case .letGo(let id):
            guard held[id] else { return }
            held[id] = false
            release(id)
        }
    }

    mutating func add(_ id: Int) {
        guard held[id] && !registered.contains(id) else { return }
        switch family {
        case .weak:
            registered.append(id)
        case .table, .lists:
            registered.append(id)
            for index in buffers(of: id) {
                change(index) { $0.append(id) }
                references[id] += 1
            }
        case .snapshots:
            changeSnapshot { $0.append(id) }
            references[id] += 1
        }
    }

    mutating func remove(_ id: Int) {
        // The caller holds the target: no removal frees it.
        guard held[id] && registered.contains(id) else { return }
        switch family {
        case .weak:
            registered.removeAll { $0 == id }
        case .table, .lists:
            registered.removeAll { $0 == id }
            for index in buffers(of: id) {
                change(index) { $0.removeAll { $0 == id } }
                release(id)
            }
        case .snapshots:
            changeSnapshot { $0.removeAll { $0 == id } }
            release(id)
        }
    }

    mutating func send(_ message: ScrollViewMessage) -> Int {
        let responds = { (id: Int) in self.program.targets[id].responds.contains(message) }
        let snapshot: [Int]
        switch family {
        case .weak:
            snapshot = registered.filter(responds)
        case .table:
            pinned[0].pins += 1
            snapshot = pinned[0].current.filter(responds)
        case .lists:
            pinned[message.ordinal].pins += 1
            snapshot = pinned[message.ordinal].current
        case .snapshots:
            readers += 1
            snapshot = registered.filter(responds)
        }
        var agreed = true
        var offered = false
        for id in snapshot {
            // A weakly held target freed before its turn is skipped.
            if family == .weak && references[id] == 0 { continue }
            events.append(.delivered(target: id, message: message, depth: depth))
            if family == .weak { references[id] += 1 }  // held for its call
            callDepth[id] += 1
            if reactionsLeft > 0 {
                reactionsLeft -= 1
                perform(program.reactions[id][message.ordinal])
            }
            callDepth[id] -= 1
            if family == .weak { release(id) }
            let spec = program.targets[id]
            if message == .shouldScrollToTop { agreed = agreed && spec.agrees }
            if message == .viewForZooming && spec.offersView {
                offered = true
                break
            }
        }
        switch family {
        case .weak: break
        case .table: endDispatch(0)
        case .lists: endDispatch(message.ordinal)
        case .snapshots:
            readers -= 1
            if readers == 0 { freeSnapshots() }
        }
        return switch message {
        case .shouldScrollToTop: agreed ? 1 : 0
        case .viewForZooming: offered ? 1 : 0
        default: 0
        }
    }

    /// A dispatch over pinned buffer `index` ends: it unpins the current
    /// buffer, or the last retired one, which it frees when no dispatch
    /// pins it any more.
    mutating func endDispatch(_ index: Int) {
        if pinned[index].pins > 0 {
            pinned[index].pins -= 1
            return
        }
        let last = pinned[index].retired.count - 1
        pinned[index].retired[last].pins -= 1
        if pinned[index].retired[last].pins == 0 {
            release(buffer: pinned[index].retired.removeLast().members)
        }
    }
}
