#!/usr/bin/env python3
"""Compare the median ns/op of two results CSVs, case by case.

usage: scripts/compare.py A.csv B.csv [--min-ns 20] [--column ns_per_op_median]
Prints the cases that differ most and the worst relative difference among
cases whose median is at least --min-ns in A.
"""
import csv
import sys


def load(path):
    with open(path, newline="") as handle:
        return {
            "/".join(row[k] for k in ("benchmark", "strategy", "message", "width", "responders")): row
            for row in csv.DictReader(handle)
        }


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    minimum = float(argv[argv.index("--min-ns") + 1]) if "--min-ns" in argv else 20.0
    column = argv[argv.index("--column") + 1] if "--column" in argv else "ns_per_op_median"
    a, b = load(argv[1]), load(argv[2])
    diffs = []
    for name, row in a.items():
        if name not in b:
            continue
        x, y = float(row[column]), float(b[name][column])
        if x >= minimum:
            diffs.append((abs(y - x) / x, name, x, y))
    diffs.sort(reverse=True)
    for diff, name, x, y in diffs[:15]:
        print(f"{diff * 100:6.2f}%  {name}: {x:.1f} -> {y:.1f} ns/op")
    within = sum(1 for d in diffs if d[0] <= 0.05)
    print(f"{column}: {len(diffs)} cases >= {minimum} ns/op; {within} within 5%; worst {diffs[0][0] * 100:.2f}% ({diffs[0][1]})")


if __name__ == "__main__":
    main(sys.argv)
