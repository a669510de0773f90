#!/usr/bin/env python3
"""Print the README's "Which strategy should I use?" table from a results CSV.

usage: scripts/guide.py [Results/results.csv] [--width 64]

Each row: a need, the strategy that meets it, its cost at the given width from the
CSV (ns per delivery, didScroll, median; for the sparse row one target in sixteen
responds) with the ratio to the C floor (cFunctionPointer) in the same run, the
cold figure with its cache lines, and the caveat; then claims on forwarding, cold
caches, real work and threads, each with its number.
Exits 2 on bad arguments, 1 when the CSV lacks a row the table needs.
"""
import csv
import re
import sys

USAGE = "usage: scripts/guide.py [Results/results.csv] [--width N]"

# need, strategy row in the CSV, responders divisor (1 = all respond), caveat
ROWS = [
    ("Targets you own, one thread: the default", "existentialArray", 1,
     "Holds targets strongly until removed; visits every target for every message."),
    ("Many targets, few implement each message", "closureTable", 16,
     "`add` costs more (a closure per message) and each target takes more memory."),
    ("Messages named at run time (`forward`)", "selectorDictionary", 1,
     "Typed dispatch costs as `closureTable`; `forward` boxes its arguments."),
    ("Must not keep targets alive, any target type", "weakArray", 1,
     "A weak load per target per message: the slowest strategy."),
    ("Behaviours that end with their screen", "lifetimeBoundToOwner", 1,
     "`add(_:boundTo: owner)`; `add(_:)` is weak and retains each holder per call."),
    ("Messages sent from several threads", "concurrent", 1,
     "Targets must be safe to call concurrently."),
]


def fail(message, status):
    print(f"guide: {message}", file=sys.stderr)
    if status == 2:
        print(USAGE, file=sys.stderr)
    sys.exit(status)


def parse(argv):
    path, width = "Results/results.csv", 64
    args = iter(argv[1:])
    for arg in args:
        if arg in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        elif arg == "--width":
            value = next(args, None)
            if value is None or not value.isdigit() or int(value) < 16:
                fail("--width needs a whole number of at least 16", 2)
            width = int(value)
        elif arg.startswith("-"):
            fail(f"unknown option '{arg}'", 2)
        else:
            path = arg
    return path, width


class Missing(Exception):
    """The CSV cannot give the table: unreadable, or without a row the table needs (the message says which)."""


def lines(path, width=64):
    """The table and its claims as Markdown lines (also drawn into the HTML report by scripts/report.py); raises
    `Missing`."""
    out = []
    print = out.append  # noqa: A001 - the printer's lines, collected
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise Missing(f"{path}: {error.strerror}") from None
    index = {(r["benchmark"], r["strategy"], r["message"], int(r["width"]), int(r["responders"])): r for r in rows}

    def row(benchmark, strategy, message, w, responders, required=True):
        found = index.get((benchmark, strategy, message, w, responders))
        if found is None and required:
            raise Missing(f"{path}: no {benchmark}/{strategy}/{message}/{w}/{responders} row")
        return found

    def ns(r):
        return float(r["ns_per_delivery"])

    def warm(strategy, w, responders):
        """ns per delivery and the ratio to the C floor with the same targets, as a cell."""
        measured = row("dispatch", strategy, "didScroll", w, responders)
        reference = row("dispatch", "cFunctionPointer", "didScroll", w, responders)
        return f"{ns(measured):.1f} ({ns(measured) / ns(reference):.1f}×"

    c_floor = row("dispatch", "cFunctionPointer", "didScroll", width, width)
    # The widths screens have (1 and 4 targets, all responding) beside the headline width, when the run has them.
    small = [w for w in (1, 4) if row("dispatch", "cFunctionPointer", "didScroll", w, w, required=False)]
    print(f"| need | strategy | " + "".join(f"width {w} | " for w in small)
          + f"width {width}: warm · cold (lines) | caveat |")
    print("|---|---|" + "---|" * len(small) + "---|---|")
    for need, strategy, divisor, caveat in ROWS:
        responders = width // divisor
        name = "lifetimeBound" if strategy.startswith("lifetimeBound") else strategy
        cold = row("cold", name, "didScroll", width, responders, required=False)
        cold_text = f" · {ns(cold):.0f}" if cold else ""
        if cold and cold.get("cache_misses_per_delivery"):
            cold_text += f" ({float(cold['cache_misses_per_delivery']):.1f} lines)"
        sparse = f", {responders} of {width} respond" if divisor > 1 else ""
        print(f"| {need} | `{name}` | " + "".join(f"{warm(strategy, w, w)}) | " for w in small)
              + f"{warm(strategy, width, responders)}{sparse}){cold_text} | {caveat} |")
    static = row("dispatch", "staticCompositionDirect", "didScroll", 16, 16, required=False)
    static_protocol = row("dispatch", "staticComposition", "didScroll", 16, 16, required=False)
    static_generic = row("dispatch", "staticCompositionGeneric", "didScroll", 16, 16, required=False)
    if static and static_protocol:
        floor16 = ns(row("dispatch", "cFunctionPointer", "didScroll", 16, 16))
        caveat = "As a delegate, hold it in a type of your own (`ComposedScrollViewDelegate`)"
        if static_generic:
            caveat += f": the group itself as the delegate costs {ns(static_generic):.0f} ns per delivery"
        print(f"| Behaviours fixed where the screen is built | `StaticComposition` | " + "– | " * len(small)
              + f"{ns(static):.2f} on its type,"
              f" {ns(static_protocol):.2f} as a delegate, at width 16 ({ns(static_protocol) / floor16:.2f}×) | {caveat} |")

    claims = []
    one = row("dispatch", "existentialArray", "didScroll", 1, 1, required=False)
    direct = row("dispatch", "cFunctionPointer", "didScroll", 1, 1, required=False)
    if one and direct:
        claims.append(f"- **Over calling one delegate**: one target through `existentialArray` costs {ns(one):.1f} ns per"
                      f" message, against {ns(direct):.1f} ns for one indirect call (`cFunctionPointer` at width 1):"
                      f" the multiplexer's fixed cost is {ns(one) - ns(direct):.1f} ns per message.")
    forward = row("forward", "selectorDictionary", "didScroll", width, width, required=False)
    typed = row("dispatch", "selectorDictionary", "didScroll", width, width)
    objc = row("dispatch", "objcForwardInvocation", "didScroll", width, width, required=False)
    if forward:
        text = (f"- **Forwarding by name** (`forward(_:arguments:)`): {ns(forward):.1f} ns per delivery at width {width},"
                f" {ns(forward) / ns(typed):.1f}× the typed dispatch")
        if objc:
            text += f"; Objective-C `forwardInvocation:` on GNUstep {ns(objc):.0f} ns ({ns(objc) / ns(forward):.0f}× slower)"
        claims.append(text + ".")
    strong = row("cold", "existentialArray", "didScroll", width, width, required=False)
    weak = row("cold", "weakArray", "didScroll", width, width, required=False)
    if strong and weak:
        claims.append(f"- **Cold caches** (flushed before each message): `existentialArray` {ns(strong):.0f} ns per delivery,"
                      f" `weakArray` {ns(weak):.0f} ns, against {ns(row('dispatch', 'existentialArray', 'didScroll', width, width)):.1f}"
                      f" and {ns(row('dispatch', 'weakArray', 'didScroll', width, width)):.1f} warm.")
    shares = []
    for strategy in ("existentialArray", "weakArray"):
        bare = row("work", strategy, "0ns", 16, 16, required=False)
        loaded = row("work", strategy, "1000ns", 16, 16, required=False)
        if bare and loaded:
            shares.append(f"`{strategy}` {100 * ns(bare) / ns(loaded):.1f} %")
    if shares:
        claims.append("- **With real work** (1 µs per callback, 16 targets, warm), dispatch is " + ", ".join(shares)
                      + " of each delivery: below a few hundred targets the choice matters only for weak references.")
    contention = [r for r in rows if r["benchmark"] == "contention"]
    if contention:
        claims.append("- **Threads**: `concurrent` with " + ", ".join(
            f"{contention_label(r['message'])} {ns(r):.1f} ns" for r in contention)
            + f" per delivery (width {contention[0]['width']}).")
    if claims:
        print("")
        print("\n".join(claims))
    commits = sorted({r["commit"] for r in rows})
    print(f"\n(didScroll, ns per delivery, medians, × the C floor with the same targets; the C floor is `cFunctionPointer`, {ns(c_floor):.1f} ns per delivery at width {width}:"
          f" a C loop over (context, function pointer) pairs; printed by `scripts/guide.py {path}` from the run at"
          f" {', '.join(commits)})")
    return "\n".join(out).split("\n")


def main(argv):
    path, width = parse(argv)
    try:
        print("\n".join(lines(path, width)))
    except Missing as error:
        fail(str(error), 1)


def contention_label(message):
    """A contention case's message column in words: `2dispatchers+mutator` reads "2 dispatchers and a mutator"."""
    match = re.fullmatch(r"(\d+)(dispatchers?)(\+mutator)?", message)
    if not match:
        return message
    return f"{match[1]} {match[2]}" + (" and a mutator" if match[3] else "")


if __name__ == "__main__":
    main(sys.argv)
