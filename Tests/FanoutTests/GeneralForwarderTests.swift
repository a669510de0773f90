import Fanout
import Testing

/// A protocol whose one message answers a doubly optional value.
protocol Answering: AnyObject {
    func answer(_ question: Int) -> Int??
}

final class Answerer: Answering {
    let reply: Int??
    init(_ reply: Int??) { self.reply = reply }
    func answer(_ question: Int) -> Int?? { reply }
}

enum AnsweringKey: String, MessageKey {
    case answer = "answer:"
}

/// A descriptor of its own, not a `Message`: `forward` goes through `MessageProtocol`'s general forwarder, which
/// casts each answer at run time to unwrap optionals.
struct AnswerDescriptor: MessageProtocol {
    typealias Schema = AnsweringSchema
    var key: AnsweringKey { .answer }
    func invoke(_ target: any Answering, _ question: Int) -> Int?? { target.answer(question) }
    func bound(to target: any Answering) -> (Int) -> Int?? { { target.answer($0) } }
    func unpack(_ arguments: [Any]) throws(ForwardingError) -> Int {
        guard arguments.count == 1 else {
            throw .wrongArgumentCount(selector: key.rawValue, expected: 1, actual: arguments.count, expectedTypes: ["Int"])
        }
        guard let question = arguments[0] as? Int else {
            throw .wrongArgumentType(
                selector: key.rawValue, position: 0, expected: "Int", actual: "\(type(of: arguments[0]))")
        }
        return question
    }
}

enum AnsweringSchema: DelegateSchema {
    typealias Target = any Answering
    typealias Key = AnsweringKey
    static var messages: [any MessageProtocol<Self>] { [AnswerDescriptor()] }
}

@Suite("The general forwarder, for a descriptor that is not a Message")
struct GeneralForwarderTests {
    @Test("a nil answer, at any depth of optional, reads as nil; a value is unwrapped")
    func unwrapsOptionalAnswers() throws {
        let multiplexer = SelectorDictionaryMultiplexer<AnsweringSchema>()
        let targets = [Answerer(.some(.some(7))), Answerer(.some(nil)), Answerer(nil)]
        for target in targets { multiplexer.add(target) }
        let answers = try multiplexer.forward("answer:", arguments: [1])
        #expect(answers.count == 3)
        #expect(answers[0] as? Int == 7)
        #expect(answers[1] == nil)
        #expect(answers[2] == nil)
    }

    @Test("its unpacking errors reach the caller")
    func unpackingErrors() {
        let multiplexer = SelectorDictionaryMultiplexer<AnsweringSchema>()
        multiplexer.add(Answerer(1))
        #expect(throws: ForwardingError.self) { try multiplexer.forward("answer:", arguments: ["one"]) }
    }
}
