import Fanout
import FanoutScrollViewKit
import Testing

@Suite("Message descriptors")
struct MessageTests {
    let view = ScrollView()

    /// Sends `message` to one probe through the descriptor's body and to
    /// another through its bound form, and returns both logs and answers.
    func sendBothWays(
        _ message: ScrollViewMessage, decelerate: Bool = true
    ) -> (body: [Delivery], bound: [Delivery], answers: [String]) {
        let viaBody = Log(), viaBound = Log()
        let first = Probe(0, log: viaBody), second = Probe(0, log: viaBound)
        for probe in [first, second] {
            probe.scrollToTopAnswer = false
            probe.zoomAnswer = view
        }
        var answers: [String] = []
        switch message {
        case .didScroll:
            ScrollViewSchema.didScroll.invoke(first, view)
            ScrollViewSchema.didScroll.bound(to: second)(view)
        case .didEndDragging:
            ScrollViewSchema.didEndDragging.invoke(first, (view, decelerate))
            ScrollViewSchema.didEndDragging.bound(to: second)((view, decelerate))
        case .shouldScrollToTop:
            answers.append("\(ScrollViewSchema.shouldScrollToTop.invoke(first, view))")
            answers.append("\(ScrollViewSchema.shouldScrollToTop.bound(to: second)(view))")
        case .viewForZooming:
            answers.append("\(ScrollViewSchema.viewForZooming.invoke(first, view) === view)")
            answers.append("\(ScrollViewSchema.viewForZooming.bound(to: second)(view) === view)")
        case .willEndDragging:
            let offsets = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2)
            defer { offsets.deallocate() }
            offsets.initialize(repeating: 10)
            ScrollViewSchema.willEndDragging.invoke(first, (view, 2, offsets.baseAddress!))
            ScrollViewSchema.willEndDragging.bound(to: second)((view, 2, offsets.baseAddress! + 1))
            answers += offsets.map { "\($0)" }
        }
        return (viaBody.deliveries, viaBound.deliveries, answers)
    }

    @Test("each ScrollViewSchema descriptor's bound form makes the same call as its body",
          arguments: ScrollViewMessage.allCases)
    func boundFormMatchesBody(message: ScrollViewMessage) {
        let (body, bound, answers) = sendBothWays(message)
        #expect(body.map(\.message) == [message])
        #expect(bound == body)
        switch message {
        case .didEndDragging:
            #expect(bound.first?.detail == "true")
            let (bodyFalse, boundFalse, _) = sendBothWays(message, decelerate: false)
            #expect(boundFalse == bodyFalse)
            #expect(boundFalse.first?.detail == "false")
        case .shouldScrollToTop: #expect(answers == ["false", "false"])
        case .viewForZooming: #expect(answers == ["true", "true"])
        case .willEndDragging:
            #expect(bound.first?.detail == "2.0 10.0")
            #expect(answers == ["10.0", "10.0"], "probe 0 adds 0 to what it was given")
        case .didScroll: break
        }
    }

    @Test("withBoundCall replaces the bound form only; without it the bound form calls the body")
    func withBoundCallReplacesOnlyTheBoundForm() throws {
        let log = Log()
        let probe = Probe(7, log: log)
        let plain = Message<ScrollViewSchema, ScrollView, Void>(.didScroll) { $0.scrollViewDidScroll($1) }
        // A bound form that differs on purpose, to tell which path runs.
        let marked = plain.withBoundCall { target in { target.scrollViewDidEndDragging($0, willDecelerate: false) } }

        plain.bound(to: probe)(view)
        marked.invoke(probe, view)
        marked.bound(to: probe)(view)
        #expect(log.deliveries.map(\.message) == [.didScroll, .didScroll, .didEndDragging])
        #expect(marked.key == .didScroll)
        _ = try marked.unpack([view])
        #expect(throws: ForwardingError.self) { try marked.unpack([]) }
    }

    @Test("closureTable and selectorDictionary send through the body", arguments: [
        DispatchStrategy.closureTable, .selectorDictionary,
    ])
    func closureStrategiesSendThroughTheBody(strategy: DispatchStrategy) {
        // ScrollViewSchema's bound forms and bodies agree (above), so the
        // conformance suite cannot tell them apart. Another schema's
        // descriptor with a marked bound form can: a typed send calls each
        // target through the descriptor's body (`forward`, below, through
        // the closure bound when the target was added).
        let multiplexer = strategy.makeMultiplexer(for: MarkedSchema.self)
        let recorder = MarkedRecorder()
        multiplexer.add(recorder)
        multiplexer.send(MarkedSchema.ping, 1)
        multiplexer.send(MarkedSchema.pong, 2)
        #expect(recorder.calls == ["body 1", "pong 2"])
    }

    @Test("forward reaches the handlers a typed send reaches, for a key with a hand-written ordinal")
    func forwardMatchesSend() throws {
        let multiplexer = SelectorDictionaryMultiplexer<MarkedSchema>()
        let recorder = MarkedRecorder()
        multiplexer.add(recorder)
        _ = try multiplexer.forward("pong:", arguments: [3])
        _ = try multiplexer.forward("ping:", arguments: [4])
        multiplexer.send(MarkedSchema.pong, 5)
        #expect(recorder.calls == ["pong 3", "bound 4", "pong 5"])
    }
}

private protocol MarkedTarget: AnyObject {
    func ping(_ value: Int, via path: String)
    func pong(_ value: Int)
}

private final class MarkedRecorder: MarkedTarget {
    var calls: [String] = []
    func ping(_ value: Int, via path: String) { calls.append("\(path) \(value)") }
    func pong(_ value: Int) { calls.append("pong \(value)") }
}

/// A key with the hand-written `ordinal` that `MessageKey` recommends.
private enum MarkedMessage: String, MessageKey {
    case ping = "ping:"
    case pong = "pong:"

    var ordinal: Int {
        switch self {
        case .ping: 0
        case .pong: 1
        }
    }
}

private enum MarkedSchema: DelegateSchema {
    typealias Target = any MarkedTarget
    typealias Key = MarkedMessage
    static var ping: Message<Self, Int, Void> {
        .init(.ping) { $0.ping($1, via: "body") }
            .withBoundCall { target in { target.ping($0, via: "bound") } }
    }
    static var pong: Message<Self, Int, Void> { .init(.pong) { $0.pong($1) } }
    static var messages: [any MessageProtocol<Self>] { [ping, pong] }
}
