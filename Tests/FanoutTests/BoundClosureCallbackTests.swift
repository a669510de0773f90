import Fanout
import Testing

/// A `withBoundCall` closure is user code: `selectorDictionary` makes it when a target is added and releases it when
/// the target is removed. Both happen with no access to the multiplexer's state open, so the closure, and the deinit
/// of what it captured, may call the multiplexer. `.ci/run` also runs this in the build that checks exclusivity on the
/// multiplexers' state (`FANOUT_CHECK_EXCLUSIVITY`), where an access still open would trap.
@Suite("A bound closure may call the multiplexer when it is made and when it is released", .serialized)
struct BoundClosureCallbackTests {
    @Test("the bound form's maker and its capture's deinit each read the multiplexer")
    func makerAndReleaseCallBack() throws {
        CallbackSchema.countsSeenByMaker = []
        CallbackSchema.countsSeenByRelease = []
        let multiplexer = SelectorDictionaryMultiplexer<CallbackSchema>()
        CallbackSchema.multiplexer = multiplexer
        defer { CallbackSchema.multiplexer = nil }
        let target = Echo()
        multiplexer.add(target)
        #expect(CallbackSchema.countsSeenByMaker == [0])
        _ = try multiplexer.forward("echo:", arguments: [1])
        #expect(target.heard == [1])
        multiplexer.remove(target)
        #expect(CallbackSchema.countsSeenByRelease == [0])
    }

    @Test("a bound form's maker that adds its own target adds nothing: the outer add registers it, once")
    func makerAddsItsTarget() throws {
        let multiplexer = SelectorDictionaryMultiplexer<CallbackSchema>()
        CallbackSchema.multiplexer = multiplexer
        CallbackSchema.makerAddsTarget = true
        defer {
            CallbackSchema.multiplexer = nil
            CallbackSchema.makerAddsTarget = false
        }
        let target = Echo()
        multiplexer.add(target)
        #expect(multiplexer.count == 1)
        _ = try multiplexer.forward("echo:", arguments: [2])
        #expect(target.heard == [2])
    }
}

private protocol EchoTarget: AnyObject {
    func echo(_ value: Int)
}

private final class Echo: EchoTarget {
    var heard: [Int] = []
    func echo(_ value: Int) { heard.append(value) }
}

private enum EchoKey: String, MessageKey {
    case echo = "echo:"
}

/// Captured by each bound closure; its deinit reads the multiplexer, as a capture's deinit may.
private final class Canary {
    deinit { CallbackSchema.countsSeenByRelease.append(CallbackSchema.multiplexer?.count ?? -1) }
}

private enum CallbackSchema: DelegateSchema {
    typealias Target = any EchoTarget
    typealias Key = EchoKey

    // One test, on one thread, uses them.
    nonisolated(unsafe) static var multiplexer: SelectorDictionaryMultiplexer<CallbackSchema>?
    nonisolated(unsafe) static var countsSeenByMaker: [Int] = []
    nonisolated(unsafe) static var countsSeenByRelease: [Int] = []
    nonisolated(unsafe) static var makerAddsTarget = false

    static var echo: Message<Self, Int, Void> {
        .init(.echo) { $0.echo($1) }
            .withBoundCall { target in
                countsSeenByMaker.append(multiplexer?.count ?? -1)
                if makerAddsTarget { multiplexer?.add(target) }
                let canary = Canary()
                return { value in
                    withExtendedLifetime(canary) { target.echo(value) }
                }
            }
    }

    static var messages: [any MessageProtocol<Self>] { [echo] }
}
