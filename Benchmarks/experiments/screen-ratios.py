#!/usr/bin/env python3
"""The time targets of the fixed-cost work: each strategy's ns per message divided by cFunctionPointer's, at widths
1, 2, 4 and 8, for each of the four messages, every target responding, from each results CSV given.

usage: Benchmarks/experiments/screen-ratios.py RUN.csv [RUN.csv ...]

Per strategy and width: the median ratio's range over the four messages, the p10 and p90 ratios' ranges, and whether
the largest median ratio is within the target (existentialArray and lifetimeBoundToOwner 1.5, closureTable 2,
selectorDictionary 3 at widths 2-8; concurrent and selectorDictionary at width 1 reported only).
"""
import csv
import sys

TARGETS = {"existentialArray": 1.5, "lifetimeBoundToOwner": 1.5, "closureTable": 2.0, "selectorDictionary": 3.0,
           "concurrent": None}
WIDTHS = (1, 2, 4, 8)


def main(paths):
    if not paths or any(p.startswith("-") for p in paths):
        sys.exit(__doc__)
    for path in paths:
        with open(path, newline="") as handle:
            rows = {(r["strategy"], r["message"], int(r["width"])): r for r in csv.DictReader(handle)
                    if r["benchmark"] == "dispatch" and r["width"] == r["responders"]}
        commit = next(iter(rows.values()))["commit"]
        print(f"{path} (commit {commit}): ratio to cFunctionPointer, median [p10, p90], min-max over the 4 messages")
        messages = sorted({m for (_, m, _) in rows})
        for strategy, target in TARGETS.items():
            cells = []
            for width in WIDTHS:
                ratios = {k: [] for k in ("ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90")}
                for message in messages:
                    mine, floor = rows.get((strategy, message, width)), rows.get(("cFunctionPointer", message, width))
                    if mine and floor:
                        for key in ratios:
                            ratios[key].append(float(mine[key]) / float(floor[key]))
                if not ratios["ns_per_op_median"]:
                    continue
                worst = max(ratios["ns_per_op_median"])
                checked = target is not None and not (strategy == "selectorDictionary" and width == 1)
                verdict = ("ok" if worst <= target else "OVER") if checked else "reported"
                span = lambda v: f"{min(v):.2f}-{max(v):.2f}"  # noqa: E731
                cells.append(f"w{width} {span(ratios['ns_per_op_median'])} [{span(ratios['ns_per_op_p10'])},"
                             f" {span(ratios['ns_per_op_p90'])}] {verdict}")
            print(f"  {strategy:22s} " + " | ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
