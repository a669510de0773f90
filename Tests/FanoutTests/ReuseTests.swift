import Fanout
import Testing

// A third protocol, with messages of zero, one and two arguments and answers
// of every kind, reusing every strategy through the one-extension glue.

protocol FormFieldObserver: AnyObject {
    func fieldDidBeginEditing()
    func shouldReturn(_ text: String) -> Bool
    func suggestion(for text: String, limit: Int) -> String?
}

enum FormFieldMessage: String, MessageKey {
    case didBeginEditing = "fieldDidBeginEditing"
    case shouldReturn = "shouldReturn:"
    case suggestion = "suggestionFor:limit:"
}

enum FormFieldSchema: DelegateSchema {
    typealias Target = any FormFieldObserver
    typealias Key = FormFieldMessage
    static var didBeginEditing: Message<Self, Void, Void> { .init(.didBeginEditing) { $0.fieldDidBeginEditing() } }
    static var shouldReturn: Message<Self, String, Bool> { .init(.shouldReturn) { $0.shouldReturn($1) } }
    static var suggestion: Message<Self, (String, Int), String?> { .init(.suggestion) { $0.suggestion(for: $1, limit: $2) } }
    static var messages: [any MessageProtocol<Self>] { [didBeginEditing, shouldReturn, suggestion] }
}

extension FormFieldObserver where Self: Delivering, Schema == FormFieldSchema {
    func fieldDidBeginEditing() { send(Schema.didBeginEditing, ()) }
    func shouldReturn(_ text: String) -> Bool { askAll(Schema.shouldReturn, text) }
    func suggestion(for text: String, limit: Int) -> String? { askUntilAnswered(Schema.suggestion, (text, limit)) }
}
extension ExistentialArrayMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}
extension ClosureTableMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}
extension SelectorDictionaryMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}
extension WeakArrayMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}
extension LifetimeBoundMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}
extension ConcurrentMultiplexer: FormFieldObserver where Schema == FormFieldSchema {}

final class FieldRecorder: FormFieldObserver {
    let name: String
    let allowsReturn: Bool
    let offer: String?
    var calls: [String] = []

    init(_ name: String, allowsReturn: Bool = true, offer: String? = nil) {
        self.name = name
        self.allowsReturn = allowsReturn
        self.offer = offer
    }

    func fieldDidBeginEditing() { calls.append("began") }
    func shouldReturn(_ text: String) -> Bool {
        calls.append("return \(text)")
        return allowsReturn
    }
    func suggestion(for text: String, limit: Int) -> String? {
        calls.append("suggest \(text) \(limit)")
        return offer.map { String("\(text)\($0)".prefix(limit)) }
    }
}

@Suite("Reusing every strategy for a protocol of 0-, 1- and 2-argument messages")
struct ReuseTests {
    @Test("send, askAll and askUntilAnswered through the protocol", arguments: DispatchStrategy.allCases)
    func throughTheProtocol(strategy: DispatchStrategy) throws {
        let multiplexer = strategy.makeMultiplexer(for: FormFieldSchema.self)
        let observer = try #require(multiplexer as? any FormFieldObserver)
        let first = FieldRecorder("first"), second = FieldRecorder("second", allowsReturn: false, offer: "ple")
        let third = FieldRecorder("third", offer: "ricot")
        for recorder in [first, second, third] { multiplexer.add(recorder) }
        observer.fieldDidBeginEditing()
        #expect(!observer.shouldReturn("ap"), "the AND of every answer")
        #expect(observer.suggestion(for: "ap", limit: 4) == "appl", "the first non-nil answer")
        #expect(first.calls == ["began", "return ap", "suggest ap 4"])
        #expect(second.calls == ["began", "return ap", "suggest ap 4"])
        #expect(third.calls == ["began", "return ap"], "not asked once an answer came")
        withExtendedLifetime([first, second, third]) {}
    }

    @Test("deliver(_:_:while:) stops when the condition says so", arguments: DispatchStrategy.allCases)
    func deliverWhile(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(for: FormFieldSchema.self)
        let recorders = (0..<4).map { FieldRecorder("\($0)", allowsReturn: $0 != 1) }
        for recorder in recorders { multiplexer.add(recorder) }
        var answers: [Bool] = []
        multiplexer.deliver(FormFieldSchema.shouldReturn, "x") { answer in
            answers.append(answer)
            return answer
        }
        #expect(answers == [true, false])
        #expect(recorders.map(\.calls.count) == [1, 1, 0, 0])
    }

    @Test("a two-argument message answers the same sent apart or as its tuple", arguments: DispatchStrategy.allCases)
    func twoArgumentsApart(strategy: DispatchStrategy) {
        let multiplexer = strategy.makeMultiplexer(for: FormFieldSchema.self)
        let recorders = [FieldRecorder("0"), FieldRecorder("1", offer: "ple"), FieldRecorder("2", offer: "ricot")]
        for recorder in recorders { multiplexer.add(recorder) }
        #expect(multiplexer.askUntilAnswered(FormFieldSchema.suggestion, "ap", 4) == "appl")
        #expect(multiplexer.askUntilAnswered(FormFieldSchema.suggestion, ("ap", 3)) == "app")
        var answers: [String?] = []
        multiplexer.deliver(FormFieldSchema.suggestion, "x", 9) { answer in
            answers.append(answer)
            return true
        }
        #expect(answers == [nil, "xple", "xricot"])
        #expect(recorders.map(\.calls) == [
            ["suggest ap 4", "suggest ap 3", "suggest x 9"], ["suggest ap 4", "suggest ap 3", "suggest x 9"],
            ["suggest x 9"],
        ])
    }
}
