#!/usr/bin/env python3
"""Compare two runs case by case: the ratio of a time column, with a verdict that accounts for each run's spread.

usage: scripts/compare.py A.csv B.csv [--min-ns 20] [--column ns_per_op_median] [--normalize] [--all]

For every case in both runs whose A value is at least --min-ns: ratio = B / A. Each run's own spread for the case
(`spread_mad_over_median`, the median absolute deviation of its samples over their median) gives the noise band:
3 × 1.4826 × sqrt(spread_A² + spread_B²) (three standard deviations, the MAD scaled to one), and at least 2 %. The
verdict is `slower` above 1 + band, `faster` below 1 - band, `same` within. The median ratio over all cases is printed
too: on this VM a whole run can be 2x slower than another, so --normalize divides every ratio by it, which compares
the cases' costs relative to their own run. Prints the 20 largest differences (every case with --all) and a count per
verdict. Exits 2 on bad usage or a malformed file, naming the file and line.
"""
import math
import statistics
import sys

import results_csv


def option(arguments, name, default):
    if name not in arguments:
        return default
    index = arguments.index(name)
    if index + 1 >= len(arguments):
        print(__doc__, file=sys.stderr)
        results_csv.fail(f"{name} needs a value")
    value = arguments.pop(index + 1)
    arguments.pop(index)
    return value


def spread(row):
    try:
        return float(row.get("spread_mad_over_median") or 0)
    except ValueError:
        return 0.0


def main(argv):
    arguments = argv[1:]
    if "-h" in arguments or "--help" in arguments:
        print(__doc__)
        return 0
    try:
        minimum = float(option(arguments, "--min-ns", "20"))
    except ValueError:
        print(__doc__, file=sys.stderr)
        results_csv.fail("--min-ns takes a number")
    column = option(arguments, "--column", "ns_per_op_median")
    normalize = "--normalize" in arguments
    show_all = "--all" in arguments
    paths = [a for a in arguments if a not in ("--normalize", "--all")]
    if len(paths) != 2 or any(p.startswith("-") for p in paths):
        print(__doc__, file=sys.stderr)
        results_csv.fail("give exactly two results CSVs")
    runs = []
    for path in paths:
        try:
            header, rows = results_csv.read(path)
        except results_csv.Malformed as error:
            results_csv.fail(str(error))
        if column not in header:
            results_csv.fail(f"{path}:1: no column {column}")
        if len({(results_csv.run(row), row["timestamp"]) for row in rows}) > 1:
            results_csv.fail(f"{path}: holds more than one run (a merged file?); compare two single runs")
        for row in rows:
            try:
                float(row[column] or 0)
            except ValueError:
                results_csv.fail(f"{path}:{row['_line']}: {column} must be a number, got '{row[column]}'")
        runs.append({results_csv.case(row): row for row in rows})
    a, b = runs
    pairs = []
    for name, row in a.items():
        if name not in b or not row[column] or not b[name][column]:
            continue
        x, y = float(row[column]), float(b[name][column])
        if x >= minimum and x > 0 and y > 0:
            band = max(0.02, 3 * 1.4826 * math.hypot(spread(row), spread(b[name])))
            pairs.append([name, x, y, y / x, band])
    if not pairs:
        results_csv.fail(f"no case is in both runs with {column} >= {minimum}", status=1)
    drift = statistics.median(p[3] for p in pairs)
    verdicts = {"slower": 0, "faster": 0, "same": 0}
    for pair in pairs:
        ratio = pair[3] / drift if normalize else pair[3]
        verdict = "slower" if ratio > 1 + pair[4] else "faster" if ratio < 1 - pair[4] else "same"
        pair += [ratio, verdict]
        verdicts[verdict] += 1
    pairs.sort(key=lambda p: abs(math.log(p[5])), reverse=True)
    print(f"{'ratio':>7} {'band':>6}  verdict  case: A -> B ({column})")
    for name, x, y, _, band, ratio, verdict in pairs if show_all else pairs[:20]:
        print(f"{ratio:7.3f} {band * 100:5.1f}%  {verdict:7s}  {name}: {x:.2f} -> {y:.2f}")
    first = next(iter(a.values()))
    second = next(iter(b.values()))
    print(f"A: {results_csv.run(first)} · commit {first['commit']}")
    print(f"B: {results_csv.run(second)} · commit {second['commit']}")
    print(f"{len(pairs)} cases with {column} >= {minimum} in A; median ratio B/A {drift:.3f}"
          f"{' (divided out)' if normalize else ''}; "
          f"{verdicts['slower']} slower, {verdicts['faster']} faster, {verdicts['same']} within their noise")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
