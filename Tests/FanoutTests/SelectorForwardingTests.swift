import Fanout
import FanoutScrollViewKit
import Testing

@Suite("Dynamic forwarding by selector")
struct SelectorForwardingTests {
    let scrollView = ScrollView()
    let log = Log()

    func makeMultiplexer(_ count: Int = 3) -> (SelectorDictionaryMultiplexer<ScrollViewSchema>, [Probe]) {
        let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
        return (multiplexer, makeProbes(count, in: multiplexer, log: log) { id in
            id == 1 ? [.didScroll] : Set(ScrollViewMessage.allCases)
        })
    }

    @Test("forwards every known selector to the responding targets")
    func forwardsKnownSelectors() throws {
        let (multiplexer, probes) = makeMultiplexer()
        probes[2].scrollToTopAnswer = false
        let zoom = SilentTarget()
        probes[0].zoomAnswer = zoom

        #expect(try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView]).count == 3)
        #expect(try multiplexer.forward("scrollViewDidEndDragging:willDecelerate:", arguments: [scrollView, true])
            .count == 2)
        let answers = try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])
        #expect(answers.map { $0 as? Bool } == [true, false])
        let views = try multiplexer.forward("viewForZoomingInScrollView:", arguments: [scrollView])
        #expect(views.count == 2)
        #expect(views[0] as AnyObject? === zoom)
        #expect(views[1] == nil, "a nil answer reads as nil")
        expectDeliveries(log, .didScroll, [0, 1, 2])
        expectDeliveries(log, .didEndDragging, [0, 2])
        #expect(log.deliveries.filter { $0.message == .didEndDragging }.allSatisfy { $0.detail == "true" })
    }

    @Test("answers kept by the caller are not changed by later forwards, of any length")
    func keptAnswersStay() throws {
        let (multiplexer, probes) = makeMultiplexer()
        probes[0].zoomAnswer = SilentTarget()
        let three = try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView])
        let two = try multiplexer.forward("viewForZoomingInScrollView:", arguments: [scrollView])
        let again = try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])
        #expect(three.count == 3 && three.allSatisfy { $0 is Void })
        #expect(two.count == 2 && two[0] as AnyObject? === probes[0].zoomAnswer && two[1] == nil)
        #expect(again.map { $0 as? Bool } == [true, true])
    }

    @Test("answers let go of are reused for the next forward, longer or shorter, without stale answers")
    func reusedAnswers() throws {
        let (multiplexer, probes) = makeMultiplexer()
        weak var view: SilentTarget?
        do {
            let zoom = SilentTarget()
            view = zoom
            probes[2].zoomAnswer = zoom
        }
        for _ in 0..<3 {
            #expect(try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView]).count == 3)
            let views = try multiplexer.forward("viewForZoomingInScrollView:", arguments: [scrollView])
            #expect(views.count == 2 && views[0] == nil && views[1] as AnyObject? === view)
            #expect(try multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView]).map { $0 as? Bool }
                == [true, true])
        }
        probes[2].zoomAnswer = nil
        _ = try multiplexer.forward("viewForZoomingInScrollView:", arguments: [scrollView])
        _ = try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView])
        #expect(view == nil, "an answer written over is released")
    }

    @Test("a forward nested in a target's callback gets its own answers")
    func nestedForward() throws {
        let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
        let outer = Probe(0, log: log, responders: Set(ScrollViewMessage.allCases))
        let inner = Probe(1, log: log, responders: Set(ScrollViewMessage.allCases))
        multiplexer.add(outer)
        multiplexer.add(inner)
        var nested: [Any?] = []
        outer.onDidScroll = { [scrollView] _ in
            nested = (try? multiplexer.forward("scrollViewShouldScrollToTop:", arguments: [scrollView])) ?? []
        }
        let answers = try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView])
        outer.onDidScroll = nil  // the hook holds the multiplexer, which holds `outer`
        #expect(answers.count == 2 && answers.allSatisfy { $0 is Void })
        #expect(nested.map { $0 as? Bool } == [true, true])
    }

    @Test("a forwarded callback that removes every target and lets go of the multiplexer frees nothing in use",
          arguments: [false, true])
    func callbackLetsGoOfEverything(dragging: Bool) throws {
        // `forward` borrows its forwarder and the handler list without
        // retaining them: this is the callback that would free them if the
        // storage did not keep both for its own lifetime. Under ASan (.ci/run)
        // a use after free fails the run; here the probes say whether a
        // target died inside its own callback.
        weak var released: SelectorDictionaryMultiplexer<ScrollViewSchema>?
        var answers: [Any?] = []
        do {
            var multiplexer: SelectorDictionaryMultiplexer<ScrollViewSchema>? = SelectorDictionaryMultiplexer()
            released = multiplexer
            var probes: [Probe]? = makeProbes(3, in: multiplexer!, log: log) { _ in Set(ScrollViewMessage.allCases) }
            let letGo: (Probe) -> Void = { _ in
                guard let current = multiplexer else { return }
                for probe in probes ?? [] { current.remove(probe) }
                probes = nil
                multiplexer = nil
            }
            probes![0].onDidScroll = letGo
            probes![0].onDidEndDragging = letGo
            let forwarding = multiplexer!
            answers = dragging
                ? try forwarding.forward("scrollViewDidEndDragging:willDecelerate:", arguments: [scrollView, true])
                : try forwarding.forward("scrollViewDidScroll:", arguments: [scrollView])
        }
        #expect(released == nil, "the multiplexer is gone once the forward returns")
        #expect(log.freedInsideOwnCallback.isEmpty, "freed inside its own callback: \(log.freedInsideOwnCallback)")
        #expect(answers.count == 3, "every target registered when the forward began answers")
        #expect(log.deallocated.sorted() == [0, 1, 2])
    }

    @Test("responds(toSelector:) reflects the registered targets")
    func respondsToSelector() {
        let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
        #expect(!multiplexer.responds(toSelector: "scrollViewDidScroll:"))
        let probe = Probe(0, log: log, responders: [.didScroll])
        multiplexer.add(probe)
        #expect(multiplexer.responds(toSelector: "scrollViewDidScroll:"))
        #expect(!multiplexer.responds(toSelector: "viewForZoomingInScrollView:"))
        #expect(!multiplexer.responds(toSelector: "tableView:didSelectRowAtIndexPath:"))
        multiplexer.remove(probe)
        #expect(!multiplexer.responds(toSelector: "scrollViewDidScroll:"))
    }

    @Test("a known selector without responders returns no answers")
    func knownSelectorWithoutResponders() throws {
        let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
        #expect(try multiplexer.forward("scrollViewDidScroll:", arguments: [scrollView]).isEmpty)
    }

    @Test("an unknown selector throws an error naming it and the known ones")
    func unknownSelector() {
        let (multiplexer, _) = makeMultiplexer()
        let error = #expect(throws: ForwardingError.self) {
            try multiplexer.forward("scrollViewDidZoom:", arguments: [scrollView])
        }
        #expect(error == .unrecognizedSelector("scrollViewDidZoom:", known: ScrollViewMessage.allCases.map(\.rawValue)))
        #expect(error?.description.contains("unrecognized selector 'scrollViewDidZoom:'") == true)
        #expect(error?.description.contains("scrollViewDidScroll:") == true)
        #expect(log.deliveries.isEmpty)
    }

    @Test("a wrong argument count throws an error naming the selector and the expected signature",
          arguments: [0, 2])
    func wrongArgumentCount(argumentCount: Int) {
        let (multiplexer, _) = makeMultiplexer()
        let arguments: [Any] = [scrollView, true].prefix(argumentCount).map { $0 }
        let error = #expect(throws: ForwardingError.self) {
            try multiplexer.forward("scrollViewDidScroll:", arguments: arguments)
        }
        #expect(error?.description == "'scrollViewDidScroll:' takes 1 argument (FanoutScrollViewKit.ScrollView), got \(arguments.count)")
        #expect(log.deliveries.isEmpty)
    }

    @Test("a wrong argument type throws an error naming the position and both types")
    func wrongArgumentType() {
        let (multiplexer, _) = makeMultiplexer()
        let error = #expect(throws: ForwardingError.self) {
            try multiplexer.forward("scrollViewDidEndDragging:willDecelerate:", arguments: [scrollView, "yes"])
        }
        #expect(error == .wrongArgumentType(
            selector: "scrollViewDidEndDragging:willDecelerate:", position: 1, expected: "Swift.Bool", actual: "Swift.String"))
        #expect(error?.description == "'scrollViewDidEndDragging:willDecelerate:' argument 1 must be Swift.Bool, got Swift.String")
        let two = #expect(throws: ForwardingError.self) {
            try multiplexer.forward("scrollViewDidEndDragging:willDecelerate:", arguments: [scrollView])
        }
        #expect(two?.description == "'scrollViewDidEndDragging:willDecelerate:' takes 2 arguments (FanoutScrollViewKit.ScrollView, Swift.Bool), got 1")
        #expect(log.deliveries.isEmpty)
    }
}
