#!/usr/bin/env bash
# What does a StaticComposition cost to compile, and in code size, per element? And is it still delivered at the
# floor, or has the optimizer given up on it?
#
# Generates a client package (in a temporary folder) that depends on this checkout's Fanout product, with a
# delegate protocol of four messages and one group of N elements sent all four messages on its concrete type and
# through the protocol, for each N given (default 0 1 16 32 47 48 64 2x32). `AxB` makes a group of A groups of B
# elements each. Prints, per N: the seconds to compile the client module alone (release, after the dependencies
# are built), the size of the client's object file (text), and ns per delivery of one message sent on the group's
# type and through a holder of the group (a type of its own, through the protocol), each the best of 5 × 100 000
# messages in one process (a sanity check of a few seconds, not a benchmark: the floor is about 0.3 ns here, and a
# group the optimizer could not specialize takes hundreds).
#
# usage: Benchmarks/experiments/static-composition-cost.sh [N | AxB ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(0 1 16 32 47 48 64 2x32)
for n in "${counts[@]}"; do
    case $n in
        [0-9]*x[0-9]*) case ${n%%x*}${n#*x} in *[!0-9]*) echo "static-composition-cost: '$n' is not AxB" >&2; exit 2;; esac;;
        ''|*[!0-9]*) echo "usage: static-composition-cost.sh [N | AxB ...]: '$n' is not a count" >&2; exit 2;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/Client"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "Client",
    dependencies: [.package(path: "$root")],
    targets: [.executableTarget(name: "Client", dependencies: [.product(name: "Fanout", package: "$(basename "$root")")])]
)
SWIFT
generate() { # n
    cat <<'SWIFT'
import Fanout

protocol Observer: AnyObject {
    func a(_ x: Int)
    func b(_ x: Int, _ y: Int)
    func c(_ x: Int) -> Bool
    func d(_ x: Int) -> AnyObject?
}
enum Key: String, MessageKey { case a = "a:", b = "b:y:", c = "c:", d = "d:" }
enum Glue: DelegateSchema {
    typealias Target = any Observer
    typealias Key = Client.Key
    static var a: Message<Self, Int, Void> { .init(.a) { $0.a($1) } }
    static var b: Message<Self, (Int, Int), Void> { .init(.b) { $0.b($1, $2) } }
    static var c: Message<Self, Int, Bool> { .init(.c) { $0.c($1) } }
    static var d: Message<Self, Int, AnyObject?> { .init(.d) { $0.d($1) } }
    static var messages: [any MessageProtocol<Self>] { [a, b, c, d] }
    static func visitMessages<V: MessageVisitor>(_ visitor: inout V) where V.Schema == Self {
        visitor.visit(a); visitor.visit(b); visitor.visit(c); visitor.visit(d)
    }
}
extension StaticComposition: Observer where Schema == Glue {
    func a(_ x: Int) { send(Schema.a, x) }
    func b(_ x: Int, _ y: Int) { send(Schema.b, (x, y)) }
    func c(_ x: Int) -> Bool { askAll(Schema.c, x) }
    func d(_ x: Int) -> AnyObject? { askUntilAnswered(Schema.d, x) }
}
final class One: Observer {
    var tally = 0
    func a(_ x: Int) { tally &+= x }
    func b(_ x: Int, _ y: Int) { tally &+= y }
    func c(_ x: Int) -> Bool { tally &+= 1; return true }
    func d(_ x: Int) -> AnyObject? { tally &+= 1; return nil }
}
@inline(never) func opaque(_ o: any Observer) -> any Observer { o }
SWIFT
    if [ "$1" = 0 ]; then echo 'print("no group")'; return; fi
    local outer=1 inner=$1
    case $1 in *x*) outer=${1%%x*}; inner=${1#*x};; esac
    # The element list's type, written out, for a holder of the group (a type of its own, as the guide advises).
    local list='StaticEnd<Glue>'
    for _ in $(seq "$inner"); do list="StaticPair<$list, One>"; done
    if [ "$outer" -gt 1 ]; then
        local groups='StaticEnd<Glue>'
        for _ in $(seq "$outer"); do groups="StaticPair<$groups, StaticComposition<Glue, $list>>"; done
        list=$groups
    fi
    for group in $(seq "$outer"); do
        echo "let inner$group = Glue.compose {"
        for _ in $(seq "$inner"); do echo '    One()'; done
        echo '}'
    done
    if [ "$outer" -eq 1 ]; then
        echo 'let group = inner1'
    else
        echo "let group = Glue.compose { $(for group in $(seq "$outer"); do printf 'inner%d; ' "$group"; done)}"
    fi
    cat <<SWIFT
final class Holder: ComposedBehaviours, Observer {
    let composition: StaticComposition<Glue, $list>
    init(_ composition: StaticComposition<Glue, $list>) { self.composition = composition }
    @inline(never) func a(_ x: Int) { send(Glue.a, x) }
    @inline(never) func b(_ x: Int, _ y: Int) { send(Glue.b, (x, y)) }
    @inline(never) func c(_ x: Int) -> Bool { askAll(Glue.c, x) }
    @inline(never) func d(_ x: Int) -> AnyObject? { askUntilAnswered(Glue.d, x) }
}
group.a(1); group.b(1, 2); print(group.c(3), group.d(4) == nil)
let erased = opaque(group); erased.a(1); erased.b(1, 2); print(erased.c(3), erased.d(4) == nil)
let held = opaque(Holder(group)); held.a(1); held.b(1, 2); print(held.c(3), held.d(4) == nil)
let clock = ContinuousClock()
/// The best of 5 × 100 000 messages, in ns per delivery.
func time(_ send: () -> Void) -> Double {
    var best = Duration.seconds(3600)
    for _ in 0..<5 {
        let start = clock.now
        for _ in 0..<100_000 { send() }
        best = min(best, clock.now - start)
    }
    return (Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9) / 100_000 / $((outer * inner)).0
}
print("ns per delivery:", time { group.a(1) }, time { held.a(1) })
SWIFT
}
generate 0 > "$work/Sources/Client/main.swift"
(cd "$work" && swift build -c release >/dev/null 2>&1) || { echo "static-composition-cost: the client did not build" >&2; exit 1; }
printf '%8s %12s %14s %18s %18s\n' elements "compile (s)" "object (bytes)" "ns/delivery: type" "held, as delegate"
for n in "${counts[@]}"; do
    generate "$n" > "$work/Sources/Client/main.swift"
    start=$(date +%s.%N)
    if ! (cd "$work" && swift build -c release > "$work/build.log" 2>&1); then
        tail -5 "$work/build.log" >&2
        echo "static-composition-cost: $n elements did not build" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    object=$(find "$work/.build/release/Client.build" -name 'main.swift.o' | head -1)
    size=$(size -A "$object" | awk '$1 == ".text" || $1 ~ /^\.text\./ { total += $2 } END { print total }')
    read -r onType held <<<"$("$work/.build/release/Client" | sed -n 's/^ns per delivery: //p')"
    [ -n "${onType:-}" ] && onType=$(printf '%.2f' "$onType") && held=$(printf '%.2f' "$held") || { onType=-; held=-; }
    printf '%8s %12.1f %14d %18s %18s\n' "$n" "$(echo "$end - $start" | bc)" "$size" "$onType" "$held"
done
