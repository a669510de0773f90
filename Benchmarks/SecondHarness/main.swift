// A second, independent harness for the headline cells: a client's own one-message protocol, glued as the guide
// teaches, timed with a plain `ContinuousClock` loop beside its own C loop. It shares no code with the suite (no
// FanoutMicrobench, no ScrollViewKit, no BenchFloor), so where the two disagree one of them is wrong.
// Run by `scripts/second-harness`, which compares its ratios with a results CSV's.
import Fanout
import FanoutSecondHarnessFloor
import Foundation

// MARK: - The client's protocol and glue

final class Source {}

protocol Listener: AnyObject {
    func changed(_ source: Source, _ value: Int)
}

enum ListenerMessage: String, MessageKey {
    case changed = "changed:value:"
}

enum ListenerSchema: DelegateSchema {
    typealias Target = any Listener
    typealias Key = ListenerMessage
    static var changed: Message<Self, (Source, Int), Void> { .init(.changed) { $0.changed($1, $2) } }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(changed)
    }
}

extension Listener where Self: Delivering, Schema == ListenerSchema {
    @inline(__always) func changed(_ source: Source, _ value: Int) { send(Schema.changed, source, value) }
}

extension ExistentialArrayMultiplexer: Listener where Schema == ListenerSchema {}
extension ClosureTableMultiplexer: Listener where Schema == ListenerSchema {}
extension SelectorDictionaryMultiplexer: Listener where Schema == ListenerSchema {}
extension WeakArrayMultiplexer: Listener where Schema == ListenerSchema {}
extension LifetimeBoundMultiplexer: Listener where Schema == ListenerSchema {}
extension ConcurrentMultiplexer: Listener where Schema == ListenerSchema {}

// MARK: - Its targets: two types, made where the optimizer cannot see which

final class Counter: Listener, RegistrationHolder {
    let registrations = RegistrationBag()
    var received = 0
    func changed(_ source: Source, _ value: Int) { received &+= value }
}

final class PaddedCounter: Listener, RegistrationHolder {
    let registrations = RegistrationBag()
    let padding = 0
    var received = 0
    func changed(_ source: Source, _ value: Int) { received &+= value }
}

@inline(never)
func makeListener(_ index: Int) -> any Listener & RegistrationHolder {
    index.isMultiple(of: 2) ? Counter() : PaddedCounter()
}

final class Owner: RegistrationHolder {
    let registrations = RegistrationBag()
}

// MARK: - The cells

struct Cell {
    let strategy: String
    let width: Int
    /// Sends one message to `width` targets, as many times as it is told: the loop is the cell's own, so that a
    /// message costs what the host's call costs and nothing of the harness's.
    let run: (Int) -> Void
    /// What the cell keeps alive.
    let keep: [AnyObject]
}

@inline(never)
func opaque<T>(_ value: T) -> T { value }

func cell(_ strategy: DispatchStrategy, width: Int) -> Cell {
    let source = Source()
    let listeners = (0..<width).map(makeListener)
    let owner = Owner()
    let multiplexer = strategy.makeMultiplexer(for: ListenerSchema.self)
    for listener in listeners {
        if strategy == .lifetimeBound, let bound = multiplexer as? LifetimeBoundMultiplexer<ListenerSchema> {
            bound.add(listener, boundTo: owner)
        } else {
            multiplexer.add(listener)
        }
    }
    guard let delegate = opaque(multiplexer as? any Listener) else {
        fatalError("\(strategy)'s multiplexer is not a Listener: its conformance line is missing")
    }
    let name = strategy == .lifetimeBound ? "lifetimeBoundToOwner" : strategy.rawValue
    return Cell(
        strategy: name, width: width,
        run: { iterations in for _ in 0..<iterations { delegate.changed(source, 1) } },
        keep: listeners + [owner, source])
}

func cFloorCell(width: Int) -> Cell {
    let listeners = second_floor_make(Int32(width))
    let source = Source()
    let raw = Unmanaged.passUnretained(source).toOpaque()
    let count = Int32(width)
    return Cell(
        strategy: "cLoop", width: width,
        run: { iterations in for _ in 0..<iterations { second_floor_changed(listeners, count, raw, 1) } },
        keep: [source])
}

// MARK: - The clock

/// Nanoseconds per message, one sample of `iterations` messages.
@inline(never)
func sample(_ run: (Int) -> Void, iterations: Int) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    run(iterations)
    let elapsed = start.duration(to: clock.now)
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}

/// Messages that take about two milliseconds.
func calibrate(_ run: (Int) -> Void) -> Int {
    var iterations = 64
    while iterations < 1 << 26 {
        let ns = sample(run, iterations: iterations) * Double(iterations)
        if ns > 2_000_000 { break }
        iterations *= 2
    }
    return iterations
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count.isMultiple(of: 2)
        ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}

func cpuName() -> String {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    else { return "unknown CPU" }
    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
}

// MARK: - The run

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("-h") || arguments.contains("--help") || !arguments.allSatisfy({ $0 == "--quick" }) {
    let usage = "usage: second-harness [--quick]   (prints CSV: strategy,width,ns_per_delivery,ratio_to_c_loop)"
    if arguments.contains("-h") || arguments.contains("--help") {
        print(usage)
        exit(0)
    }
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
let rounds = arguments.contains("--quick") ? 3 : 9
let widths = [1, 4, 64]
var cells: [Cell] = []
for width in widths {
    cells.append(cFloorCell(width: width))
    for strategy in DispatchStrategy.allCases { cells.append(cell(strategy, width: width)) }
}
let iterations = cells.map { calibrate($0.run) }
var samples = Array(repeating: [Double](), count: cells.count)
var generator = SystemRandomNumberGenerator()
for _ in 0..<rounds {
    for index in cells.indices.shuffled(using: &generator) {
        for _ in 0..<3 { samples[index].append(sample(cells[index].run, iterations: iterations[index])) }
    }
}
let perDelivery = cells.indices.map { median(samples[$0]) / Double(cells[$0].width) }
print("# second-harness: \(cpuName()), \(rounds * 3) samples per cell, medians; ContinuousClock; own targets and C loop")
print("strategy,width,ns_per_delivery,ratio_to_c_loop")
for index in cells.indices {
    let floor = cells.indices.first { cells[$0].strategy == "cLoop" && cells[$0].width == cells[index].width }!
    let ratio = perDelivery[index] / perDelivery[floor]
    print("\(cells[index].strategy),\(cells[index].width),\(String(format: "%.3f", perDelivery[index])),"
        + String(format: "%.3f", ratio))
}
withExtendedLifetime(cells.map(\.keep)) {}
