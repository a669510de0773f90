#!/usr/bin/env python3
"""Print strategies' time per message as ratios to existentialArray's, from one results CSV.

usage: Benchmarks/experiments/ratios.py RESULTS.csv [--min-width N] [--target R] [strategy ...]

Dense dispatch cases only (every target responds). Each cell is the ratio of the strategy's
median, p10 and min to existentialArray's for the same message and width, from the same run,
so that the machine's fast and slow spells cancel. The default strategies are closureTable and
selectorDictionary. A summary line per strategy gives the range of each statistic and how many
message × width cells are within the target ratio (default 1.5).
"""
import csv
import sys

STATISTICS = ("ns_per_op_median", "ns_per_op_p10", "ns_per_op_min")
NEEDED = ("benchmark", "strategy", "message", "width", "responders", "ns_per_delivery") + STATISTICS


def fail(message):
    print(f"ratios.py: {message}", file=sys.stderr)
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    sys.exit(2)


def parse(argv):
    path, min_width, target, strategies = None, 0, 1.5, []
    args = iter(argv[1:])
    for arg in args:
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if arg in ("--min-width", "--target"):
            value = next(args, None)
            try:
                number = int(value) if arg == "--min-width" else float(value)
            except (TypeError, ValueError):
                fail(f"{arg} needs a number, got {value!r}")
            if arg == "--min-width":
                min_width = number
            else:
                target = number
        elif arg.startswith("-"):
            fail(f"unknown option {arg}")
        elif path is None:
            path = arg
        else:
            strategies.append(arg)
    if path is None:
        fail("no results CSV given")
    return path, min_width, target, strategies or ["closureTable", "selectorDictionary"]


def main(argv):
    path, min_width, target, strategies = parse(argv)
    try:
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in NEEDED if c not in (reader.fieldnames or [])]
            if missing:
                fail(f"{path}: missing column(s) {', '.join(missing)}")
            rows = [r for r in reader
                    if r["benchmark"] == "dispatch" and r["width"] == r["responders"] and int(r["width"]) >= min_width]
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")
    by_key = {(r["strategy"], r["message"], int(r["width"])): r for r in rows}
    present = {r["strategy"] for r in rows}
    for strategy in ["existentialArray"] + strategies:
        if strategy not in present:
            fail(f"{path}: no dense dispatch rows for {strategy!r} at widths >= {min_width}")
    keys = sorted({(r["message"], int(r["width"])) for r in rows if r["strategy"] == "existentialArray"})

    print("| message | width | existentialArray ns/delivery | "
          + " | ".join(f"{s} ÷ existentialArray (median, p10, min)" for s in strategies) + " |")
    print("|---" * (3 + len(strategies)) + "|")
    ratios = {s: {statistic: [] for statistic in STATISTICS} for s in strategies}
    for message, width in keys:
        base = by_key[("existentialArray", message, width)]
        cells = []
        for strategy in strategies:
            row = by_key.get((strategy, message, width))
            if row is None:
                cells.append("–")
                continue
            values = [float(row[k]) / float(base[k]) for k in STATISTICS]
            for statistic, value in zip(STATISTICS, values):
                ratios[strategy][statistic].append(value)
            cells.append(", ".join(f"{v:.2f}" for v in values))
        print(f"| {message} | {width} | {float(base['ns_per_delivery']):.2f} | " + " | ".join(cells) + " |")

    print()
    for strategy in strategies:
        parts = []
        for statistic in STATISTICS:
            values = ratios[strategy][statistic]
            within = sum(v <= target for v in values)
            name = statistic.removeprefix("ns_per_op_")
            parts.append(f"{name} {min(values):.2f}–{max(values):.2f}× ({within} of {len(values)} within {target}×)")
        print(f"{strategy} ÷ existentialArray, widths ≥ {min_width}: " + "; ".join(parts))


if __name__ == "__main__":
    main(sys.argv)
