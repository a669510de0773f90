// The positive control of ConcurrentNonSendableTargets.swift: with a Sendable target type, the multiplexer is
// Sendable and may be shared between threads.
import Fanout

protocol SendableObserver: AnyObject, Sendable { func changed(_ value: Int) }

func shareBetweenThreads<Shared: Sendable>(_ shared: Shared, _ body: @escaping @Sendable (Shared) -> Void) {}

func shareObservers() {
    shareBetweenThreads(ConcurrentMultiplexer<Targets<any SendableObserver>>()) { $0.forEach { $0.changed(1) } }
}
