"""How often a record's intervals cover reruns, pair by pair: a cross-validation over full runs of one build.

usage: scripts/interval-crossval RECORD.csv [--keep K]

RECORD.csv holds five or more full runs of one build, its rows grouped by run (`timestamp`): a CPU's record,
Results/records/<cpu>.csv. For every choice of K of its runs (default: all but three) as the record, and every ordered
pair (A, B) of the runs left out, the share of B's figures (every case measured in fresh processes) that lie inside
A's interval, for two constructions of the interval from those K runs:

- "run level" (bench since 9ea4bf7): sqrt2 x (t975(K-1) x run level + 1.645 x case), the run level the standard
  deviation of the runs' levels (each the median over cases of log(figure / the case's geometric mean)), the case the
  standard deviation of its deviations beyond its run's level, shrunk halfway toward the median case's;
- "in quadrature" (before): 1.645 x sqrt2 x the case's relative standard deviation between the runs, shrunk halfway
  toward the median case's.

The within-run part of an interval (the spread of the run's time blocks) is not in the CSV, so both leave it out: the
case's spread between runs holds the process noise. Prints, for each construction, the pairs below 90 % coverage and
the median half-width. Exits 2 on bad usage or a malformed file, naming the file and line.
"""
import argparse
import itertools
import math
import signal
import statistics
import sys

import results_csv

Z90 = 1.645
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]


def t975(df):
    """Student's t quantile at 0.975, as bench computes it (RerunInterval.t975)."""
    df = max(df, 1)
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def shrunk(own, pooled):
    return math.sqrt((own * own + pooled * pooled) / 2)


def runs_of(path):
    """{timestamp: {case: ns per delivery}} of the cases every run measured in fresh processes."""
    try:
        _, rows = results_csv.read(path)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    runs = {}
    for row in rows:
        if int(row.get("processes") or 0) > 1 and float(row["ns_per_delivery"]) > 0:
            runs.setdefault(row["timestamp"], {})[results_csv.case(row)] = float(row["ns_per_delivery"])
    if len(runs) < 5:
        results_csv.fail(f"{path}: holds {len(runs)} runs; a cross-validation takes at least five")
    common = set.intersection(*(set(run) for run in runs.values()))
    return [{case: run[case] for case in common} for _, run in sorted(runs.items())], sorted(common)


def run_level_interval(record, cases):
    """{case: half-width} of the run-level construction from the runs in `record`."""
    k = len(record)
    deviations = {}
    for case in cases:
        logs = [math.log(run[case]) for run in record]
        mean = sum(logs) / k
        deviations[case] = [value - mean for value in logs]
    levels = [statistics.median(deviations[case][index] for case in cases) for index in range(k)]
    level = statistics.stdev(levels)
    own = {case: math.sqrt(sum((d - l) ** 2 for d, l in zip(deviations[case], levels)) / (k - 1)) for case in cases}
    pooled = statistics.median(own.values())
    return {case: math.sqrt(2) * (t975(k - 1) * level + Z90 * shrunk(own[case], pooled)) for case in cases}


def quadrature_interval(record, cases):
    """{case: half-width} of the construction before the run level: each case's spread, in quadrature."""
    own = {}
    for case in cases:
        values = [run[case] for run in record]
        own[case] = statistics.stdev(values) / statistics.mean(values)
    pooled = statistics.median(own.values())
    return {case: Z90 * math.sqrt(2) * shrunk(own[case], pooled) for case in cases}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record")
    parser.add_argument("--keep", type=int, help="runs in each record (default: all but three)")
    arguments = parser.parse_args()
    runs, cases = runs_of(arguments.record)
    keep = arguments.keep or len(runs) - 3
    if not 3 <= keep <= len(runs) - 2:
        parser.error(f"--keep takes 3 to {len(runs) - 2} for {len(runs)} runs, got {keep}")
    print(f"{len(runs)} runs of {len(cases)} cases; records of {keep} runs, pairs among the other {len(runs) - keep} "
          "(at most four, the first in start order)")
    for name, construct in (("run level", run_level_interval), ("in quadrature", quadrature_interval)):
        below, pairs, widths = 0, 0, []
        for chosen in itertools.combinations(range(len(runs)), keep):
            record = [runs[index] for index in chosen]
            left = [runs[index] for index in range(len(runs)) if index not in chosen][:4]
            half = construct(record, cases)
            widths.append(statistics.median(half.values()))
            for a, b in itertools.permutations(left, 2):
                inside = sum(abs(b[case] / a[case] - 1) <= half[case] for case in cases) / len(cases)
                pairs += 1
                below += inside < 0.9
        print(f"{name}: {below} of {pairs} pairs below 90 % coverage; median half-width "
              f"±{statistics.median(widths) * 100:.1f} %")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
