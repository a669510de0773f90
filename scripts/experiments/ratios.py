#!/usr/bin/env python3
"""Print each strategy's time per message as a ratio to existentialArray's, from one results CSV.

usage: scripts/experiments/ratios.py RESULTS.csv [strategy ...]
Dense cases only (every target responds). Ratios of medians, p10 and min of the same run, so
that the machine's fast and slow spells cancel.
"""
import csv
import sys


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    path, strategies = argv[1], argv[2:] or ["closureTable", "selectorDictionary"]
    with open(path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["benchmark"] == "dispatch" and r["width"] == r["responders"]]
    by_key = {(r["strategy"], r["message"], int(r["width"])): r for r in rows}
    keys = sorted({(r["message"], int(r["width"])) for r in rows if r["strategy"] == "existentialArray"})
    print("| message | width | existentialArray ns/delivery | "
          + " | ".join(f"{s} ÷ existentialArray (median, p10, min)" for s in strategies) + " |")
    print("|---" * (3 + len(strategies)) + "|")
    for message, width in keys:
        base = by_key[("existentialArray", message, width)]
        cells = []
        for strategy in strategies:
            row = by_key.get((strategy, message, width))
            if row is None:
                cells.append("–")
                continue
            ratios = [float(row[k]) / float(base[k]) for k in ("ns_per_op_median", "ns_per_op_p10", "ns_per_op_min")]
            cells.append(", ".join(f"{r:.2f}" for r in ratios))
        print(f"| {message} | {width} | {float(base['ns_per_delivery']):.2f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv)
