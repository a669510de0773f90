import Fanout
import FanoutStatic
import FanoutScrollViewKit
import Testing

/// The conformance checks that apply to a fixed group, run on the group's
/// concrete type, through `any ScrollViewDelegate` (as a delegate property
/// holds it), and through a type of its own that holds the group
/// (``ComposedScrollViewDelegate``). Not applicable, because the group is immutable: adding twice,
/// removing strangers, a target added or removed during a dispatch, `count`
/// after removal, the weak strategies' lifetimes (the group holds its elements
/// strongly, as `existentialArray` does).
@Suite("StaticComposition: a fixed group with the strategies' semantics")
struct StaticCompositionTests {
    enum Call: String, CaseIterable { case concrete, throughProtocol, named }

    let log = Log()
    let view = ScrollView()

    /// Three probes; probe 1 responds to didScroll only.
    func probes() -> (Probe, Probe, Probe) {
        (Probe(0, log: log), Probe(1, log: log, responders: [.didScroll]), Probe(2, log: log))
    }

    /// `group` as the call under test sees it.
    func delegate<E: StaticElements>(_ group: StaticComposition<ScrollViewSchema, E>, _ call: Call) -> any ScrollViewDelegate {
        switch call {
        case .concrete: group
        case .throughProtocol: identityDelegate(group)
        case .named:
            // Three probes get a holder that is not generic, whose witnesses
            // are specialized as an app's would be; other groups a generic one.
            if let three = group as? StaticComposition<ScrollViewSchema, ThreeProbes> {
                identityDelegate(ThreeProbeBehaviours(composition: three))
            } else {
                identityDelegate(NamedGroup(composition: group))
            }
        }
    }

    @Test("delivers in order, only to responders, and answers like the dynamic strategies", arguments: Call.allCases)
    func semantics(call: Call) {
        let (a, b, c) = probes()
        c.scrollToTopAnswer = false
        a.zoomAnswer = nil
        let zoom = SilentTarget()
        c.zoomAnswer = zoom
        let group = ScrollViewSchema.compose { a; b; c }
        #expect(group.count == 3)
        #expect(group.responds(to: .didEndDragging))
        if call == .concrete {
            group.scrollViewDidScroll(view)
            group.scrollViewDidEndDragging(view, willDecelerate: true)
            #expect(group.scrollViewShouldScrollToTop(view) == false)
            #expect(group.viewForZooming(in: view) === zoom)
        } else {
            let target = delegate(group, call)
            target.scrollViewDidScroll(view)
            target.scrollViewDidEndDragging(view, willDecelerate: true)
            #expect(target.scrollViewShouldScrollToTop(view) == false)
            #expect(target.viewForZooming(in: view) === zoom)
        }
        expectDeliveries(log, .didScroll, [0, 1, 2])
        expectDeliveries(log, .didEndDragging, [0, 2])
        expectDeliveries(log, .shouldScrollToTop, [0, 2])      // AND without short-circuit: both asked
        expectDeliveries(log, .viewForZooming, [0, 2])         // stops at the first non-nil: 2 answers
    }

    @Test("askAll asks every responder even after a false; askUntilAnswered stops at the first answer")
    func combining() {
        let (a, b, c) = probes()
        a.scrollToTopAnswer = false
        a.zoomAnswer = SilentTarget()
        let group = ScrollViewSchema.compose { a; b; c }
        #expect(group.scrollViewShouldScrollToTop(view) == false)
        expectDeliveries(log, .shouldScrollToTop, [0, 2])
        #expect(group.viewForZooming(in: view) === a.zoomAnswer)
        expectDeliveries(log, .viewForZooming, [0])
    }

    @Test("responds(to:) is read when the group is built")
    func respondsReadOnce() {
        let (a, b, _) = probes()
        let group = ScrollViewSchema.compose { a; b }
        b.responders = Set(ScrollViewMessage.allCases)
        group.scrollViewDidEndDragging(view, willDecelerate: false)
        expectDeliveries(log, .didEndDragging, [0])
    }

    @Test("callbacks may send through the group again, nested three deep", arguments: Call.allCases)
    func reentrant(call: Call) {
        let (a, b, _) = probes()
        let group = ScrollViewSchema.compose { a; b }
        let target = delegate(group, call)
        var depth = 0
        b.onDidScroll = { [view] _ in
            depth += 1
            if depth < 3 { target.scrollViewDidScroll(view) }
        }
        target.scrollViewDidScroll(view)
        b.onDidScroll = nil  // the hook holds the group, which holds `b`
        expectDeliveries(log, .didScroll, [0, 1, 0, 1, 0, 1])
    }

    @Test("groups nest, and a group may hold a dynamic multiplexer whose targets change", arguments: Call.allCases)
    func composition(call: Call) {
        let (a, b, c) = probes()
        let dynamic = ClosureTableMultiplexer<ScrollViewSchema>()
        let inner = ScrollViewSchema.compose { b; c }
        let outer = ScrollViewSchema.compose { a; inner; dynamic }
        #expect(outer.count == 3)
        let late = Probe(3, log: log)
        dynamic.add(late)
        delegate(outer, call).scrollViewDidScroll(view)
        delegate(outer, call).scrollViewDidEndDragging(view, willDecelerate: true)
        expectDeliveries(log, .didScroll, [0, 1, 2, 3])
        expectDeliveries(log, .didEndDragging, [0, 2, 3])
        dynamic.remove(late)
        #expect(outer.responds(to: .didEndDragging), "a and c still respond")
    }

    /// Sends the four messages to `group` as `call` says: on the group's own
    /// type, through the protocol, or through a holder. The two answers.
    func sendAll<E: StaticElements>(
        _ group: StaticComposition<ScrollViewSchema, E>, _ call: Call
    ) -> (scrollToTop: Bool, zoom: AnyObject?) where E.Schema == ScrollViewSchema {
        if call == .concrete {
            group.scrollViewDidScroll(view)
            group.scrollViewDidEndDragging(view, willDecelerate: false)
            return (group.scrollViewShouldScrollToTop(view), group.viewForZooming(in: view))
        }
        let target = delegate(group, call)
        target.scrollViewDidScroll(view)
        target.scrollViewDidEndDragging(view, willDecelerate: false)
        return (target.scrollViewShouldScrollToTop(view), target.viewForZooming(in: view))
    }

    /// Probe `index` of a wide group: every probe but each third responds to
    /// didScroll; each fifth, the first and the last two to didEndDragging;
    /// all to shouldScrollToTop; none to viewForZooming.
    func wideProbe(_ made: inout [Probe], count: Int) -> Probe {
        let index = made.count
        var responders: Set<ScrollViewMessage> = [.shouldScrollToTop]
        if index % 3 != 1 { responders.insert(.didScroll) }
        if index % 5 == 0 || index >= count - 2 { responders.insert(.didEndDragging) }
        made.append(Probe(index, log: log, responders: responders))
        return made[index]
    }

    /// What `wideProbe` makes `count` probes answer, checked against the log.
    func expectWideDeliveries(count: Int, answers: (scrollToTop: Bool, zoom: AnyObject?),
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answers.scrollToTop && answers.zoom == nil, sourceLocation: sourceLocation)
        expectDeliveries(log, .didScroll, (0..<count).filter { $0 % 3 != 1 }, sourceLocation: sourceLocation)
        expectDeliveries(log, .didEndDragging, (0..<count).filter { $0 % 5 == 0 || $0 >= count - 2 },
                         sourceLocation: sourceLocation)
        expectDeliveries(log, .shouldScrollToTop, Array(0..<count), sourceLocation: sourceLocation)
        expectDeliveries(log, .viewForZooming, [], sourceLocation: sourceLocation)
    }

    /// A group of 64 fits one word of responders per message, every bit used
    /// (a group larger than that reads each element's stored messages). In a
    /// release build a group this wide is not specialized (past 47 elements,
    /// measured); the word's specialized path is checked
    /// by the smaller groups above and below.
    @Test("a group of 64 sends each element exactly the messages it responds to", arguments: Call.allCases)
    func sixtyFour(call: Call) {
        var made: [Probe] = []
        let next = { wideProbe(&made, count: 64) }
        let group = StaticComposition(plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(
            StaticEnd<ScrollViewSchema>(), next), next), next), next), next), next), next), next))
        #expect(group.count == 64 && made.count == 64)
        expectWideDeliveries(count: 64, answers: sendAll(group, call))
        #expect(!group.responds(to: .viewForZooming))
    }

    /// Past 64 elements a group has no word: every element's stored messages.
    @Test("a group of 66 sends each element exactly the messages it responds to", arguments: Call.allCases)
    func sixtySix(call: Call) {
        var made: [Probe] = []
        let next = { wideProbe(&made, count: 66) }
        let group = StaticComposition(StaticPair(StaticPair(
            plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(plusEight(
                StaticEnd<ScrollViewSchema>(), next), next), next), next), next), next), next), next), next()), next()))
        #expect(group.count == 66 && made.count == 66)
        expectWideDeliveries(count: 66, answers: sendAll(group, call))
    }

    @Test("an empty group answers as no target: nothing sent, askAll true, askUntilAnswered nil", arguments: Call.allCases)
    func empty(call: Call) {
        let group = StaticComposition(StaticEnd<ScrollViewSchema>())
        #expect(group.count == 0 && !group.responds(to: .didScroll))
        let answers = sendAll(group, call)
        #expect(answers.scrollToTop && answers.zoom == nil)
        #expect(log.deliveries.isEmpty)
    }

    /// A list of another kind than `StaticPair`s has no fixed count: the
    /// group then reads each pair's stored messages, and the list delivers
    /// to its own elements.
    @Test("a list of another kind as the prefix: its own delivery, then the pair's element", arguments: Call.allCases)
    func listOfAnotherKind(call: Call) {
        let (a, b, c) = probes()
        let group = StaticComposition(StaticPair(StaticPair(ProbeList(probes: [a, b]), c), Probe(3, log: log, responders: [])))
        _ = sendAll(group, call)
        expectDeliveries(log, .didScroll, [0, 1, 2])
        expectDeliveries(log, .didEndDragging, [0, 2])
        #expect(group.count == 4)
    }

    @Test("works as a ScrollView's delegate and holds its elements strongly")
    func asDelegate() {
        weak var weakProbe: Probe?
        let group: StaticComposition<ScrollViewSchema, StaticPair<StaticEnd<ScrollViewSchema>, Probe>>
        do {
            let probe = Probe(0, log: log)
            weakProbe = probe
            group = ScrollViewSchema.compose { probe }
        }
        #expect(weakProbe != nil, "the group keeps its element alive")
        let scrollView = ScrollView()
        scrollView.delegate = group
        scrollView.scroll(to: 12)
        expectDeliveries(log, .didScroll, [0])
    }

    /// The group calls its elements without retaining them (they are a `let`
    /// of the group, which its caller keeps alive), so a callback that makes
    /// the group's owner let go of the group must still find its element
    /// alive until it returns: directly, and from another element's callback
    /// for a message sent from inside the first one's. Sent on the group's
    /// concrete type from the owner's property, or by a `ScrollView` whose
    /// weak delegate is the group.
    @Test("a callback that makes the owner let go of the group does not free its element",
          arguments: [Call.concrete, .throughProtocol], [false, true])
    func ownerLetsGoOfTheGroup(call: Call, nested: Bool) {
        typealias Group = StaticComposition<ScrollViewSchema, StaticPair<StaticPair<StaticEnd<ScrollViewSchema>, Probe>, Probe>>
        final class Screen { var behaviours: Group? }
        let screen = Screen()
        let view = self.view
        weak var weakProbe: Probe?
        do {
            let probe = Probe(0, log: log), bystander = Probe(1, log: log)
            weakProbe = probe
            screen.behaviours = ScrollViewSchema.compose { probe; bystander }
            probe.onDidScroll = { probe in
                switch (nested, call) {
                case (false, _): screen.behaviours = nil
                case (true, .concrete): screen.behaviours?.scrollViewDidEndDragging(view, willDecelerate: false)
                case (true, .throughProtocol), (true, .named): view.delegate?.scrollViewDidEndDragging(view, willDecelerate: false)
                }
                probe.scrollToTopAnswer.toggle()  // touches the element after its group is gone
            }
            if nested { bystander.onDidEndDragging = { _ in screen.behaviours = nil } }
        }
        view.delegate = screen.behaviours
        switch call {
        case .concrete: screen.behaviours?.scrollViewDidScroll(view)
        case .throughProtocol, .named: view.scroll(to: 5)
        }
        #expect(log.freedInsideOwnCallback.isEmpty, "freed inside its own callback: \(log.freedInsideOwnCallback)")
        #expect(screen.behaviours == nil && weakProbe == nil, "the group and its elements are gone afterwards")
        #expect(log.targets(of: .didScroll) == [0, 1])
    }
}

/// `group` behind an opaque function, so the call goes through the protocol.
@inline(never)
func identityDelegate(_ delegate: any ScrollViewDelegate) -> any ScrollViewDelegate { delegate }

typealias ThreeProbes = StaticPair<StaticPair<StaticPair<StaticEnd<ScrollViewSchema>, Probe>, Probe>, Probe>

/// A holder of three probes, as an app names its group of behaviours.
final class ThreeProbeBehaviours: ComposedScrollViewDelegate {
    let composition: StaticComposition<ScrollViewSchema, ThreeProbes>
    init(composition: StaticComposition<ScrollViewSchema, ThreeProbes>) { self.composition = composition }
}

/// A holder of any group.
final class NamedGroup<Elements: StaticElements>: ComposedScrollViewDelegate where Elements.Schema == ScrollViewSchema {
    let composition: StaticComposition<ScrollViewSchema, Elements>
    init(composition: StaticComposition<ScrollViewSchema, Elements>) { self.composition = composition }
}

/// Eight more probes after `prefix`, in order.
func plusEight<Prefix: StaticElements>(_ prefix: Prefix, _ next: () -> Probe) -> PlusEight<Prefix>
where Prefix.Schema == ScrollViewSchema {
    StaticPair(StaticPair(StaticPair(StaticPair(StaticPair(StaticPair(StaticPair(StaticPair(
        prefix, next()), next()), next()), next()), next()), next()), next()), next())
}

typealias PlusEight<Prefix: StaticElements> = StaticPair<StaticPair<StaticPair<StaticPair<StaticPair<StaticPair<
    StaticPair<StaticPair<Prefix, Probe>, Probe>, Probe>, Probe>, Probe>, Probe>, Probe>, Probe>

/// A list of probes that is not made of `StaticPair`s: what a custom
/// `StaticElements` looks like to a group.
struct ProbeList: StaticElements {
    typealias Schema = ScrollViewSchema
    let probes: [Probe]
    var count: Int { probes.count }
    func responds(to key: ScrollViewMessage) -> Bool { probes.contains { $0.responds(to: key) } }
    func deliver<Arguments, Result>(
        _ message: Message<ScrollViewSchema, Arguments, Result>, _ arguments: Arguments,
        while shouldContinue: (Result) -> Bool
    ) -> Bool {
        for probe in probes where probe.responds(to: message.key) {
            guard shouldContinue(message.invoke(probe, arguments)) else { return false }
        }
        return true
    }
}
