import Fanout
import Foundation
import FanoutMicrobench
import Observation
import FanoutScrollViewKit

/// What a Swift engineer would use instead of a multiplexer, each delivering
/// the `didScroll` payload to `width` receivers: rows of the `dispatch`
/// benchmark whose `strategy` is the peer's name.
enum PeerFamily: BenchmarkFamily {
    static let contenders = ["notificationCenter", "observation", "asyncStream"]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        return contenders.flatMap { name in
            selection.widths.map { width in
                BenchmarkCase(DispatchFamily.id(name, .didScroll, width: width, responders: width), deliveriesPerOperation: width) {
                    switch name {
                    case "notificationCenter": notificationCenter(width: width)
                    case "observation": observation(width: width)
                    default: asyncStream(width: width)
                    }
                }
            }
        }
    }

    static func summary(of rows: [ResultRow], selection: Selection) -> [String] {
        let byID = rows.byID("dispatch")
        let width = SummaryTable.headlineWidth(selection.widths) ?? 1
        let peers = (contenders + ObjCPeerFamily.contenders).compactMap { name in
            byID[DispatchFamily.id(name, .didScroll, width: width, responders: width)].map {
                "\(name) \(SummaryTable.nanoseconds($0.nanosecondsPerDelivery))"
            }
        }
        guard !peers.isEmpty else { return [] }
        return ["peers, ns per delivery of didScroll at width \(width): " + peers.joined(separator: ", ")]
    }

    /// Foundation `NotificationCenter`, one block observer per receiver, one
    /// post per message (synchronous, on the posting thread).
    static func notificationCenter(width: Int) -> (Int) -> Void {
        let center = NotificationCenter()
        let name = Notification.Name("ScrollViewDidScroll")
        let receivers = (0..<width).map { _ in Receiver() }
        let tokens = receivers.map { receiver in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in receiver.tally &+= 1 }
        }
        let view = ScrollView()
        return { iterations in
            for _ in 0..<iterations { center.post(name: name, object: view) }
            withExtendedLifetime(tokens) {}
        }
    }

    /// The Observation framework: an `@Observable` model whose `contentOffset`
    /// change reaches every receiver's `onChange`, which re-registers, as
    /// `withObservationTracking` fires once per registration.
    static func observation(width: Int) -> (Int) -> Void {
        let model = ScrollModel()
        let receivers = (0..<width).map { _ in ObservationReceiver(model) }
        for receiver in receivers { receiver.track() }
        return { iterations in
            for _ in 0..<iterations { model.contentOffset += 1 }
            withExtendedLifetime(receivers) {}
        }
    }

    /// One `AsyncStream` per receiver; a message yields once into each. Only
    /// the producer's side is measured: consumers would run as tasks on other
    /// threads, later, so the delivery itself is not part of the figure.
    static func asyncStream(width: Int) -> (Int) -> Void {
        let streams = (0..<width).map { _ in AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(1)) }
        let continuations = streams.map(\.continuation)
        return { iterations in
            for iteration in 0..<iterations {
                for continuation in continuations { continuation.yield(Double(iteration)) }
            }
            withExtendedLifetime(streams) {}
        }
    }
}

/// A notification receiver; `@unchecked Sendable` because the block API wants
/// `@Sendable` blocks, and the bench posts from one thread.
final class Receiver: @unchecked Sendable {
    var tally = 0
}

@Observable
final class ScrollModel {
    var contentOffset = 0.0
}

/// Observes `contentOffset` and counts changes. Swift 6 requires `onChange`
/// to be `@Sendable`; the bench runs on one thread.
final class ObservationReceiver: @unchecked Sendable {
    let model: ScrollModel
    var tally = 0

    init(_ model: ScrollModel) { self.model = model }

    func track() {
        withObservationTracking {
            _ = model.contentOffset
        } onChange: { [unowned self] in
            tally &+= 1
            track()
        }
    }
}
