// A ConcurrentMultiplexer whose target type is not Sendable is not Sendable: its targets are called from whichever
// thread dispatches (Documentation/Strategies.md), so sharing it between threads must not compile.
// expected-error: type 'any PlainObserver' does not conform to the 'Sendable' protocol
import Fanout

protocol PlainObserver: AnyObject { func changed(_ value: Int) }

func shareBetweenThreads<Shared: Sendable>(_ shared: Shared, _ body: @escaping @Sendable (Shared) -> Void) {}

func shareObservers() {
    shareBetweenThreads(ConcurrentMultiplexer<Targets<any PlainObserver>>()) { $0.forEach { $0.changed(1) } }
}
