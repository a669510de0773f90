import Fanout
import FanoutStatic
import FanoutScrollViewKit
import Testing

// Glue mistakes a schema can make, each refused the same way, in every build, by every way of making a
// multiplexer: the program stops with a message naming the schema and the message, when the first one is made.

protocol PairTarget: AnyObject {
    func first(_ value: Int)
    func second(_ value: Int)
}

enum PairMessage: String, MessageKey {
    case first = "first:"
    case second = "second:"
}

final class PairRecorder: PairTarget {
    var calls: [String] = []
    func first(_ value: Int) { calls.append("first \(value)") }
    func second(_ value: Int) { calls.append("second \(value)") }
}

/// The descriptors every faulty schema below shares.
protocol PairDescriptors: DelegateSchema where Target == any PairTarget, Key == PairMessage {}

extension PairDescriptors {
    static var first: Message<Self, Int, Void> { .init(.first) { $0.first($1) } }
    static var second: Message<Self, Int, Void> { .init(.second) { $0.second($1) } }
}

/// Leaves `second` out of its list.
enum OmittingSchema: PairDescriptors {
    static var messages: [any MessageProtocol<Self>] { [first] }
}

/// Lists `first` twice.
enum DoublingSchema: PairDescriptors {
    static var messages: [any MessageProtocol<Self>] { [first, second, first] }
}

/// Lists both, but visits only `first`: a static composition would deliver `second` through slow code.
enum PartlyVisitedSchema: PairDescriptors {
    static var messages: [any MessageProtocol<Self>] { [first, second] }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(first)
    }
}

/// Lists nothing and visits nothing.
enum EmptySchema: PairDescriptors {}

/// A key whose hand-written `ordinal` is not its position.
enum MisnumberedMessage: String, MessageKey {
    case first = "first:"
    case second = "second:"

    var ordinal: Int { self == .first ? 1 : 0 }
}

enum MisnumberedSchema: DelegateSchema {
    typealias Target = any PairTarget
    typealias Key = MisnumberedMessage
    static var first: Message<Self, Int, Void> { .init(.first) { $0.first($1) } }
    static var second: Message<Self, Int, Void> { .init(.second) { $0.second($1) } }
    static var messages: [any MessageProtocol<Self>] { [first, second] }
}

/// A key whose `allCases` and `ordinal` agree, but not with the order its cases are declared in, which a delivery
/// reads (`MessageKey.caseIndex`).
enum ReorderedMessage: String, MessageKey {
    case first = "first:"
    case second = "second:"

    static var allCases: [ReorderedMessage] { [.second, .first] }
    var ordinal: Int { self == .second ? 0 : 1 }
}

enum ReorderedSchema: DelegateSchema {
    typealias Target = any PairTarget
    typealias Key = ReorderedMessage
    static var first: Message<Self, Int, Void> { .init(.first) { $0.first($1) } }
    static var second: Message<Self, Int, Void> { .init(.second) { $0.second($1) } }
    static var messages: [any MessageProtocol<Self>] { [first, second] }
}

/// A key whose two cases have the same selector, which forwarding by name could not tell apart.
enum DuplicateSelectorMessage: MessageKey {
    case first, second

    init?(rawValue: String) {
        guard rawValue == "first:" else { return nil }
        self = .first
    }

    var rawValue: String { "first:" }
}

enum DuplicateSelectorSchema: DelegateSchema {
    typealias Target = any PairTarget
    typealias Key = DuplicateSelectorMessage
    static var first: Message<Self, Int, Void> { .init(.first) { $0.first($1) } }
    static var second: Message<Self, Int, Void> { .init(.second) { $0.second($1) } }
    static var messages: [any MessageProtocol<Self>] { [first, second] }
}

/// Lists both, and visits `first` twice.
enum VisitingTwiceSchema: PairDescriptors {
    static var messages: [any MessageProtocol<Self>] { [first, second] }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(first)
        visitor.visit(second)
        visitor.visit(first)
    }
}

/// Visits `second` with a descriptor of another type than the one it lists.
enum MistypedSchema: PairDescriptors {
    static var messages: [any MessageProtocol<Self>] { [first, second] }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(first)
        visitor.visit(Message<Self, String, Void>(.second) { target, _ in target.second(0) })
    }
}

/// Every way to make something that delivers a schema's messages: each strategy, from the one list of them,
/// a storage made on its own, and a static composition.
enum Maker: CaseIterable, Sendable {
    case strategy(DispatchStrategy)
    case staticComposition

    static var allCases: [Maker] { DispatchStrategy.allCases.map(Maker.strategy) + [.staticComposition] }

    /// The name an exit test carries across the process boundary.
    var name: String {
        switch self {
        case .strategy(let strategy): strategy.rawValue
        case .staticComposition: "staticComposition"
        }
    }

    init?(name: String) {
        guard let maker = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = maker
    }

    func make<Schema: DelegateSchema>(_ schema: Schema.Type) where Schema.Target == any PairTarget {
        switch self {
        case .strategy(let strategy): _ = strategy.makeMultiplexer(for: schema)
        case .staticComposition: _ = Schema.compose { PairRecorder() }
        }
    }
}

enum FaultySchema: String, CaseIterable, Sendable {
    case omitting, doubling, partlyVisited, visitingTwice, mistyped, empty, misnumbered, reordered, duplicateSelector

    /// What the refusal says.
    var expected: String {
        switch self {
        case .omitting: "OmittingSchema.messages has no descriptor for 'second:'"
        case .doubling: "DoublingSchema.messages lists 'first:' twice"
        case .partlyVisited: "PartlyVisitedSchema.visitMessages has no descriptor for 'second:'"
        case .visitingTwice: "VisitingTwiceSchema.visitMessages lists 'first:' twice"
        case .mistyped: "MistypedSchema.visitMessages visits 'second:' as Message<MistypedSchema, String, ()>, but MistypedSchema.messages lists it as Message<MistypedSchema, Int, ()>"
        case .empty: "EmptySchema.messages has no descriptor for 'first:'"
        case .misnumbered: "MisnumberedSchema: MisnumberedMessage.ordinal of 'first:' is 1, not its position in allCases, 0"
        case .reordered:
            "ReorderedSchema: 'second:' is declared at index 1 of ReorderedMessage but is at position 0 of allCases"
        case .duplicateSelector: "DuplicateSelectorSchema: two of DuplicateSelectorMessage's cases have the selector 'first:'"
        }
    }

    func make(with maker: Maker) {
        switch self {
        case .omitting: maker.make(OmittingSchema.self)
        case .doubling: maker.make(DoublingSchema.self)
        case .partlyVisited: maker.make(PartlyVisitedSchema.self)
        case .visitingTwice: maker.make(VisitingTwiceSchema.self)
        case .mistyped: maker.make(MistypedSchema.self)
        case .empty: maker.make(EmptySchema.self)
        case .misnumbered: maker.make(MisnumberedSchema.self)
        case .reordered: maker.make(ReorderedSchema.self)
        case .duplicateSelector: maker.make(DuplicateSelectorSchema.self)
        }
    }
}

@Suite("A schema's glue is checked once, the same way by every strategy")
struct SchemaInfoTests {
    @Test("faulty glue is refused when the first multiplexer, storage or composition is made, in every build",
          arguments: FaultySchema.allCases, Maker.allCases)
    func faultyGlueIsRefused(_ schema: FaultySchema, _ maker: Maker) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [schema = schema.rawValue as String, maker = maker.name as String] in
            FaultySchema(rawValue: schema)!.make(with: Maker(name: maker)!)
        }
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(output.contains(schema.expected), "\(output)")
    }

    @Test("an enumeration's ordinal is its case's position, without a hand-written one")
    func derivedOrdinal() {
        #expect(PairMessage.allCases.map(\.ordinal) == [0, 1])
        #expect(ScrollViewMessage.allCases.map(\.ordinal) == [0, 1, 2, 3, 4])
        enum Single: String, MessageKey { case only = "only" }
        #expect(Single.only.ordinal == 0)
    }

    @Test("messages is derived from visitMessages")
    func messagesDerived() {
        #expect(ScrollViewSchema.messages.map { $0.key } == ScrollViewMessage.allCases)
    }
}
