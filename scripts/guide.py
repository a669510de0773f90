#!/usr/bin/env python3
"""Print the README's "Which strategy should I use?" table from a results CSV.

usage: scripts/guide.py [Results/results.csv] [--width 64]

Each row: a need, the strategy that meets it, its cost at the given width from the
CSV (ns per delivery, didScroll, median; for the sparse row one target in sixteen
responds) with the ratio to existentialArray in the same run, and the caveat.
Exits 2 on bad arguments, 1 when the CSV lacks a row the table needs.
"""
import csv
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
     "Targets must be safe to call concurrently; needs `Mutex` (macOS 15, iOS 18)."),
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


def main(argv):
    path, width = parse(argv)
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        fail(f"{path}: {error.strerror}", 1)
    cells = {}
    for row in rows:
        if row.get("benchmark") == "dispatch" and row.get("message") == "didScroll" and row.get("width") == str(width):
            cells[(row["strategy"], int(row["responders"]))] = row

    def cell(strategy, responders):
        row = cells.get((strategy, responders))
        if row is None:
            fail(f"{path}: no dispatch/{strategy}/didScroll/{width}/{responders} row", 1)
        return row

    commits = sorted({row["commit"] for row in cells.values()})
    print(f"| need | strategy | ns per delivery at width {width} (× `existentialArray`) | caveat |")
    print("|---|---|---|---|")
    for need, strategy, divisor, caveat in ROWS:
        responders = width // divisor
        row = cell(strategy, responders)
        reference = cell("existentialArray", responders)
        ns = float(row["ns_per_delivery"])
        ratio = ns / float(reference["ns_per_delivery"])
        sparse = f", {responders} of {width} respond" if divisor > 1 else ""
        name = "lifetimeBound" if strategy.startswith("lifetimeBound") else strategy
        print(f"| {need} | `{name}` | {ns:.1f} ({ratio:.2f}×{sparse}) | {caveat} |")
    print(f"\n(didScroll, median; `scripts/guide.py {path}` at commit {', '.join(commits)})")


if __name__ == "__main__":
    main(sys.argv)
