"""What Fanout costs a client: builds small client packages and prints their clean release build time and stripped size,
beside the same client with a hand-written forwarding class: what `scripts/client-cost` does.

Each client declares a protocol of N messages (of four shapes in turn: one argument, two, an answer all must agree
on, a first non-nil answer), two targets, and sends every message once. The hand-written client forwards with a class
over `[any P]`; a Fanout client uses the glue `Documentation/ReusingForYourProtocol.md` teaches (a key per message, a
descriptor, its line in `visitMessages`, a method) and one conformance line per strategy it uses, depending on this
checkout by path. Each client is built N = --messages and N = 2 × --messages to give the cost per message added.

    scripts/client-cost [--messages 8] [--repeats 3] [--strategies existentialArray] [--work DIR] [--output CSV]

Prints, per client: the median clean release build time over --repeats builds (the package's .build removed before
each), the stripped executable's size, and what Fanout adds over the hand-written client; then the size per message
added. The clients are written under the work folder (default .build-client-cost/). With --output, the same figures
also go to a CSV, written atomically, with the CPU, commit and date: `--output Results/client-cost.csv` records the
committed figures that the results page (`bench page`) shows. Exit 0 when measured; 2 on a bad argument or a build
that fails.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import results_csv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATEGIES = ["existentialArray", "closureTable", "selectorDictionary", "weakArray", "lifetimeBound", "concurrent"]
CLASSES = {name: name[0].upper() + name[1:] + "Multiplexer" for name in STRATEGIES}


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="scripts/client-cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=8,
                        help="messages in the protocol (default 8; also built with twice as many)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="clean builds per client, the median reported (default 3)")
    parser.add_argument("--strategies", default="existentialArray",
                        help="the strategies measured one per client, comma-separated (default existentialArray); "
                             "a client with all six is always measured")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build-client-cost"), help="work folder")
    parser.add_argument("--output", help="also write the figures to this CSV")
    arguments = parser.parse_args(argv)
    if not 1 <= arguments.messages <= 32:
        parser.error("--messages must be between 1 and 32")
    if arguments.repeats < 1:
        parser.error("--repeats must be at least 1")
    arguments.strategies = [name for name in arguments.strategies.split(",") if name]
    unknown = [name for name in arguments.strategies if name not in STRATEGIES]
    if unknown:
        parser.error(f"unknown strategy {', '.join(unknown)}: choose from {', '.join(STRATEGIES)}")
    return arguments


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def shape(index):
    """(parameters, arguments, return type, hand-written body, Fanout message type, Fanout call) of message `index`."""
    name = f"message{index}"
    kind = index % 4
    if kind == 0:
        return (f"func {name}(_ value: Int)", "Void",
                f"for target in targets {{ target.{name}(value) }}",
                f"Message<Self, Int, Void> {{ .init(.{name}) {{ $0.{name}($1) }} }}",
                f"send(Schema.{name}, value)")
    if kind == 1:
        return (f"func {name}(_ value: Int, label: String)", "Void",
                f"for target in targets {{ target.{name}(value, label: label) }}",
                f"Message<Self, (Int, String), Void> {{ .init(.{name}) {{ $0.{name}($1, label: $2) }} }}",
                f"send(Schema.{name}, value, label)")
    if kind == 2:
        return (f"func {name}(_ value: Int) -> Bool", "Bool",
                f"var all = true\n        for target in targets {{ all = target.{name}(value) && all }}\n        return all",
                f"Message<Self, Int, Bool> {{ .init(.{name}) {{ $0.{name}($1) }} }}",
                f"askAll(Schema.{name}, value)")
    return (f"func {name}(_ value: Int) -> Int?", "Int?",
            f"for target in targets {{ if let answer = target.{name}(value) {{ return answer }} }}\n        return nil",
            f"Message<Self, Int, Int?> {{ .init(.{name}) {{ $0.{name}($1) }} }}",
            f"askUntilAnswered(Schema.{name}, value)")


def protocol_source(count):
    lines = ["protocol Observer: AnyObject {"]
    lines += [f"    {shape(i)[0]}" for i in range(count)]
    lines.append("}")
    lines.append("")
    lines.append("final class Recorder: Observer {")
    lines.append("    var total = 0")
    for i in range(count):
        signature, result, *_ = shape(i)
        body = {"Void": "total += value", "Bool": "total += value\n        return true",
                "Int?": "total += value\n        return value > 1 ? value : nil"}[result]
        lines.append(f"    {signature} {{\n        {body}\n    }}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def sends(count, receiver):
    calls = []
    for i in range(count):
        name, kind = f"message{i}", i % 4
        call = {0: f"{receiver}.{name}(1)", 1: f"{receiver}.{name}(1, label: \"x\")",
                2: f"_ = {receiver}.{name}(1)", 3: f"_ = {receiver}.{name}(2)"}[kind]
        calls.append("    " + call)
    return "\n".join(calls)


def hand_written(count):
    lines = [protocol_source(count), "final class Observers: Observer {", "    var targets: [any Observer] = []"]
    for i in range(count):
        signature, _, body, _, _ = shape(i)
        lines.append(f"    {signature} {{\n        {body}\n    }}")
    lines.append("}")
    lines.append("")
    lines.append("let observers = Observers()")
    lines.append("let first = Recorder(), second = Recorder()")
    lines.append("observers.targets = [first, second]")
    lines.append("func run(_ observer: any Observer) {")
    lines.append(sends(count, "observer"))
    lines.append("}")
    lines.append("run(observers)")
    lines.append("print(first.total + second.total)")
    return "\n".join(lines) + "\n"


def fanout_client(count, strategies):
    lines = ["import Fanout", "", protocol_source(count)]
    cases = ", ".join(f'message{i} = "message{i}:"' for i in range(count))
    lines.append(f"enum ObserverMessage: String, MessageKey {{\n    case {cases}\n}}")
    lines.append("")
    lines.append("enum ObserverSchema: DelegateSchema {")
    lines.append("    typealias Target = any Observer")
    lines.append("    typealias Key = ObserverMessage")
    for i in range(count):
        lines.append(f"    static var message{i}: {shape(i)[3]}")
    lines.append("    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {")
    lines += [f"        visitor.visit(message{i})" for i in range(count)]
    lines.append("    }")
    lines.append("}")
    lines.append("")
    lines.append("extension Observer where Self: Delivering, Schema == ObserverSchema {")
    for i in range(count):
        lines.append(f"    @inline(__always) {shape(i)[0]} {{ {shape(i)[4]} }}")
    lines.append("}")
    for strategy in strategies:
        lines.append(f"extension {CLASSES[strategy]}: Observer where Schema == ObserverSchema {{}}")
    lines.append("")
    lines.append("let first = Recorder(), second = Recorder()")
    lines.append("func run(_ observer: any Observer) {")
    lines.append(sends(count, "observer"))
    lines.append("}")
    for index, strategy in enumerate(strategies):
        lines.append(f"let multiplexer{index} = {CLASSES[strategy]}<ObserverSchema>()")
        lines.append(f"multiplexer{index}.add(first)")
        lines.append(f"multiplexer{index}.add(second)")
        lines.append(f"run(multiplexer{index})")
    lines.append("print(first.total + second.total)")
    lines.append("withExtendedLifetime((first, second)) {}")
    return "\n".join(lines) + "\n"


def manifest(with_fanout):
    dependency = f'.package(path: "{ROOT}")' if with_fanout else ""
    # A path dependency's identity is its folder's name, lowercased.
    product = f'.product(name: "Fanout", package: "{os.path.basename(ROOT).lower()}")' if with_fanout else ""
    return f"""// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Client",
    dependencies: [{dependency}],
    targets: [.executableTarget(name: "Client", dependencies: [{product}], path: "Sources")]
)
"""


def write_package(folder, source, with_fanout):
    os.makedirs(os.path.join(folder, "Sources"), exist_ok=True)
    with open(os.path.join(folder, "Package.swift"), "w") as file:
        file.write(manifest(with_fanout))
    with open(os.path.join(folder, "Sources", "main.swift"), "w") as file:
        file.write(source)


def measure(folder, repeats):
    """(median clean release build seconds, stripped size in bytes) of the client in `folder`."""
    times = []
    for _ in range(repeats):
        shutil.rmtree(os.path.join(folder, ".build"), ignore_errors=True)
        start = time.monotonic()
        result = subprocess.run(["swift", "build", "-c", "release", "--package-path", folder],
                                capture_output=True, text=True, check=False)
        times.append(time.monotonic() - start)
        if result.returncode != 0:
            fail(f"the client in {folder} did not build:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    binary = os.path.join(folder, ".build", "release", "Client")
    run = subprocess.run([binary], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        fail(f"the client in {folder} did not run: {run.stderr}")
    handle, stripped = tempfile.mkstemp(dir=folder)
    os.close(handle)
    subprocess.run(["strip", "-o", stripped, binary], check=True)
    size = os.path.getsize(stripped)
    os.remove(stripped)
    return statistics.median(times), size


def main(argv):
    arguments = parse_arguments(argv)
    if shutil.which("strip") is None:
        fail("strip (binutils) is not installed")
    os.makedirs(arguments.work, exist_ok=True)
    clients = [("hand-written", None)] + [(name, [name]) for name in arguments.strategies] + [("all six", STRATEGIES)]
    results = {}
    for count in (arguments.messages, 2 * arguments.messages):
        for label, strategies in clients:
            folder = os.path.join(arguments.work, f"{label.replace(' ', '-')}-{count}")
            source = hand_written(count) if strategies is None else fanout_client(count, strategies)
            write_package(folder, source, strategies is not None)
            print(f"== {label}, {count} messages", file=sys.stderr)
            results[(label, count)] = measure(folder, arguments.repeats)

    count = arguments.messages
    cpu = "unknown CPU"
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as file:
            cpu = next((line.split(":", 1)[1].strip() for line in file if line.startswith("model name")), cpu)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    print(f"a client of {count} messages, release, stripped; clean build: median of {arguments.repeats} "
          f"({cpu}, Fanout at {commit.stdout.strip() or 'unknown'})")
    hand_time, hand_size = results[("hand-written", count)]
    print(f"{'client':20} {'build s':>8} {'size KB':>8} {'Fanout adds KB':>15} {'build x':>8} "
          f"{'KB per message added':>21}")
    for label, _ in clients:
        seconds, size = results[(label, count)]
        added = (results[(label, 2 * count)][1] - size) / count / 1024
        over = "" if label == "hand-written" else f"{(size - hand_size) / 1024:15.0f}"
        factor = "" if label == "hand-written" else f"{seconds / hand_time:8.1f}"
        print(f"{label:20} {seconds:8.1f} {size / 1024:8.0f} {over:>15} {factor:>8} {added:21.1f}")
    if arguments.output:
        date = time.strftime("%Y-%m-%d", time.gmtime())
        rows = [{"client": label, "messages": count, "build_seconds": f"{results[(label, count)][0]:.2f}",
                 "stripped_bytes": results[(label, count)][1],
                 "bytes_per_message_added": f"{(results[(label, 2 * count)][1] - results[(label, count)][1]) / count:.0f}",
                 "repeats": arguments.repeats, "cpu": cpu, "commit": commit.stdout.strip() or "unknown", "date": date}
                for label, _ in clients]
        try:
            results_csv.write_atomically(arguments.output, list(rows[0]), rows)
        except OSError as error:
            fail(f"could not write {arguments.output}: {error.strerror or error}")
        print(f"wrote {arguments.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
