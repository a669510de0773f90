#!/usr/bin/env python3
"""Compare two runs case by case: the ratio of a column, with a verdict that accounts for each run's noise.

usage: scripts/compare A.csv B.csv [--column C] [--reference STRATEGY] [--reruns R.csv ...] [--min-ns 20]
                          [--count-band 0.01] [--normalize] [--all]
       scripts/compare A.csv B.csv --agreement

A and B are two results CSVs (`bench` runs) or two sets of the gate's counts (`bench check --records`, a baseline).
For every case in both: ratio = B / A of --column, and a verdict, `slower` (more), `faster` (fewer) or `same`:

- a time (default ns_per_op_median, for cases whose A value is at least --min-ns): each run's own noise for the case
  (one standard deviation: the larger of 1.4826 × `spread_mad_over_median` and the p10-p90 range over 2.563) gives
  the band, z × sqrt(noise_A² + noise_B²), at least 2 %, where z is chosen for the number of cases compared so that
  two runs that differ by noise alone flag no case at all 95 % of the time (3.7 for 270 cases, 4.1 for 1 100);
- with --reference STRATEGY, the time as a ratio to the same run's STRATEGY for the same benchmark, message, width and
  responders (e.g. existentialArray): what a choice of strategy depends on, and what survives a run that is slower as
  a whole; the noise adds both cases' of both runs;
- with --reruns, other runs of A's build (the same commit, other processes): a case's noise within one run misses
  what changes from process to process (on this VM some cases sit at one level for a whole process and at another in
  the next, 115 or 150 ns, with 1 % of spread inside each run), so the noise also adds, twice, the spread of the
  case's value over A and the reruns (the standard deviation of its logarithm);
- a count (mallocs_per_op, retains_per_op, releases_per_op, instructions_per_op; the default for gate records): the
  counts are deterministic, so the band is --count-band (1 %); a count that was 0 and is not is `slower`.

With --agreement, the published cells only (the dispatch cases every reader sees: the six strategies, the two
lifetimeBound forms, the floor and the two hand-written loops, every message, every target responding, at widths 1, 4
and 64), each as its ratio to the same run's C floor, whatever its time (--min-ns 0): the share of cells whose ratio
agrees between A and B within ±5 % and within ±10 %, and every cell beyond ±5 %; then the same shares over every
dispatch case. A number to state beside a published ratio: how far a second run of the same build moves it.

The median ratio over all cases is printed too: on this VM a whole run can be 2x slower than another, so --normalize
divides every ratio by it. Prints the 20 largest differences (every case with --all) and a count per verdict. Exits 2
on bad usage or a malformed file, naming the file and line.
"""
import argparse
import math
import signal
import statistics
import sys

import results_csv


def nonnegative(text):
    """An argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"takes a number >= 0, got '{text}'")
    return value


def spread(row):
    """A case's noise within its run, as a relative standard deviation: the larger of 1.4826 × its samples' median
    absolute deviation over their median, and their p10-p90 range over 2.563 (both one standard deviation of a normal
    distribution); the range catches a case whose samples sit at two levels, which the MAD of the larger group hides."""
    try:
        mad = 1.4826 * float(row.get("spread_mad_over_median") or 0)
    except ValueError:
        mad = 0.0
    try:
        median, p10, p90 = (float(row[c]) for c in ("ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90"))
        tails = (p90 - p10) / 2.563 / median if median > 0 else 0.0
    except (KeyError, ValueError):
        tails = 0.0
    return max(mad, tails)


def read_run(path):
    """(header, rows, whether the file holds gate records) of the run in `path`."""
    try:
        header, rows = results_csv.read(path, records=True)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    return header, rows, "ns_per_op_median" not in header


def index(path, run, column, records):
    """The run read from `path`, checked for `column`: {case name: row}, and a line naming it."""
    header, rows, is_records = run
    if is_records != records:
        results_csv.fail(f"{path}: compare two results CSVs or two sets of gate records, not one of each")
    if column not in header:
        results_csv.fail(f"{path}:1: no column {column}")
    if not records and len({(results_csv.run(row), row["timestamp"]) for row in rows}) > 1:
        results_csv.fail(f"{path}: holds more than one run (a merged file?); compare two single runs")
    cases = {}
    for row in rows:
        try:
            float(row[column] or 0)
        except ValueError:
            results_csv.fail(f"{path}:{row['_line']}: {column} must be a number, got '{row[column]}'")
        name = results_csv.case(row)
        if name in cases:
            results_csv.fail(f"{path}:{row['_line']}: {name} again (first at line {cases[name]['_line']})")
        cases[name] = row
    if records or not rows:
        label = f"{path} (gate records)" if records else path
    else:
        label = f"{results_csv.run(rows[0])} · commit {rows[0]['commit']}"
    return cases, label


def between_runs(values):
    """The spread of a case's value over several runs: the standard deviation of the logarithms. Not a median
    deviation: a case that sits at one of two levels per process is what this term is for, and with two runs of five
    at the other level the median deviation would not see it."""
    logs = [math.log(v) for v in values if v > 0]
    return statistics.stdev(logs) if len(logs) >= 2 else 0.0


def reference_of(row, strategy):
    return "/".join([row["benchmark"], strategy, row["message"], row["width"], row["responders"]])


class Comparison:
    """Two runs compared case by case (`compare`): `pairs` holds, per case, [name, A value, B value, raw ratio, band,
    ratio, verdict]; `drift` the median ratio; `verdicts` the count of each verdict."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def regressions_first(self):
        return regressions_first(self.pairs)


def regressions_first(pairs):
    """`pairs` (as `Comparison.pairs`, possibly with more fields), `slower` first, then `faster`, then `same`, each by
    the size of its ratio."""
    order = {"slower": 0, "faster": 1, "same": 2}
    return sorted(pairs, key=lambda p: (order[p[6]], -magnitude(p[5])))


def magnitude(ratio):
    return math.inf if not math.isfinite(ratio) or ratio == 0 else abs(math.log(ratio))


def compare(paths, column=None, reference=None, rerun_paths=(), normalize=False, minimum=20.0, count_band=0.01,
            usage=None):
    """Compares the runs (or gate records) at `paths` = [A, B]; exits 2 on a malformed file or a bad combination of
    options (after printing `usage`, if given), 1 when no case is in both (as `main` documents)."""
    rerun_paths = list(rerun_paths)
    runs = {path: read_run(path) for path in paths + rerun_paths}
    first_is_records = runs[paths[0]][2]
    column = column or ("instructions_per_op" if first_is_records else "ns_per_op_median")
    is_count = column in results_csv.COUNTS
    if usage and ((reference and is_count) or (rerun_paths and is_count)):
        print(usage, file=sys.stderr)
    if reference and is_count:
        results_csv.fail("--reference compares times; counts are compared as they are")
    if rerun_paths and is_count:
        results_csv.fail("--reruns estimates the noise of times; counts do not vary between runs")
    a, label_a = index(paths[0], runs[paths[0]], column, first_is_records)
    b, label_b = index(paths[1], runs[paths[1]], column, first_is_records)
    reruns = [index(path, runs[path], column, first_is_records)[0] for path in rerun_paths]

    def value(run, name):
        """The compared value of a case in a run and its spread, or None."""
        row = run.get(name)
        if row is None or row[column] == "":
            return None
        x = float(row[column])
        if reference is None:
            return x, spread(row)
        base = run.get(reference_of(row, reference))
        if base is None or base[column] == "" or float(base[column]) <= 0 or row["strategy"] == reference:
            return None
        return x / float(base[column]), math.hypot(spread(row), spread(base))

    pairs = []
    for name, row in a.items():
        x, y = value(a, name), value(b, name)
        if x is None or y is None:
            continue
        if is_count:
            if x[0] == 0:
                ratio = 1.0 if y[0] == 0 else math.inf
            else:
                ratio = y[0] / x[0]
            pairs.append([name, x[0], y[0], ratio, count_band])
        elif float(row[column]) >= minimum and x[0] > 0 and y[0] > 0:
            between = between_runs([x[0]] + [v[0] for v in (value(r, name) for r in reruns) if v is not None])
            pairs.append([name, x[0], y[0], y[0] / x[0], math.sqrt(x[1] ** 2 + y[1] ** 2 + 2 * between ** 2)])
    if not pairs:
        results_csv.fail(f"no case is in both runs with {column}{'' if is_count else f' >= {minimum}'}", status=1)
    # Times: the band is z standard deviations, at least 2 %, with z chosen for the number of cases compared so that
    # the chance of flagging any case of two runs of one build is 5 % (Bonferroni; 3.7 for 270 cases, 4.1 for 1 100).
    z = max(3.0, statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * len(pairs))))
    if not is_count:
        for pair in pairs:
            pair[4] = max(0.02, z * pair[4])
    finite = [p[3] for p in pairs if math.isfinite(p[3])]
    drift = statistics.median(finite) if finite else 1.0
    verdicts = {"slower": 0, "faster": 0, "same": 0}
    for pair in pairs:
        ratio = pair[3] / drift if normalize and drift > 0 else pair[3]
        verdict = "slower" if ratio > 1 + pair[4] else "faster" if ratio < 1 - pair[4] else "same"
        pair += [ratio, verdict]
        verdicts[verdict] += 1
    return Comparison(pairs=pairs, column=column, reference=reference, is_count=is_count, z=z, drift=drift,
                      verdicts=verdicts, label_a=label_a, label_b=label_b, reruns=len(reruns), minimum=minimum,
                      normalize=normalize)


PUBLISHED_WIDTHS = (1, 4, 64)
PUBLISHED_STRATEGIES = ("existentialArray", "closureTable", "selectorDictionary", "weakArray", "lifetimeBound",
                        "concurrent", "lifetimeBoundToOwner", "floor", "handWrittenLoop", "weakBoxMulticast")


def agreement(result, widths=PUBLISHED_WIDTHS, strategies=PUBLISHED_STRATEGIES):
    """The published cells of a comparison made with a reference (every strategy and floor of `strategies`, every
    message, dense, at `widths`): (cells, share within ±5 %, share within ±10 %, the cells beyond ±5 %, largest
    difference first). A cell's ratio is B's ratio to B's reference over A's to A's: what a reader of either run
    would conclude about the strategy against the floor."""
    cells = []
    for pair in result.pairs:
        benchmark, strategy, _, width, responders = pair[0].split("/")
        if benchmark == results_csv.headline()["benchmark"] and strategy in strategies and width == responders and int(width) in widths:
            cells.append(pair)
    if not cells:
        return 0, 0.0, 0.0, []
    within = [sum(abs(p[3] - 1) <= band for p in cells) / len(cells) for band in (0.05, 0.10)]
    beyond = sorted((p for p in cells if abs(p[3] - 1) > 0.05), key=lambda p: magnitude(p[3]), reverse=True)
    return len(cells), within[0], within[1], beyond


def coverage(paths):
    """How often each run's figures (ns per delivery, every case that carries an interval) lie inside the other
    run's interval, and the intervals' median half-width: what the intervals claim (a rerun inside nine times in
    ten), measured. No lines when neither file has intervals."""
    runs = []
    for path in paths:
        try:
            _, rows = results_csv.read(path)
        except results_csv.Malformed as error:
            results_csv.fail(str(error))
        runs.append({results_csv.case(row): row for row in rows})
    lines = []
    for (a, label_a), (b, label_b) in (((runs[0], "A"), (runs[1], "B")), ((runs[1], "B"), (runs[0], "A"))):
        inside, cells, widths = 0, 0, []
        for name, row in a.items():
            if not row.get("interval") or name not in b:
                continue
            half = float(row["interval"])
            figure, other = float(row["ns_per_delivery"]), float(b[name]["ns_per_delivery"])
            cells += 1
            widths.append(half)
            inside += abs(other - figure) <= half * figure
        if cells:
            lines.append(f"coverage: {inside} of {label_b}'s {cells} figures ({inside / cells * 100:.1f} %) lie inside "
                         f"{label_a}'s intervals (median half-width ±{statistics.median(widths) * 100:.1f} %)")
    return lines


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/compare", description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs=2, metavar="RUN", help="A.csv and B.csv: two results CSVs or gate records")
    parser.add_argument("--column", help="the column compared (default ns_per_op_median, or the counts for records)")
    parser.add_argument("--reference", metavar="STRATEGY", help="compare each case as a ratio to this strategy's")
    parser.add_argument("--reruns", nargs="+", default=[], metavar="R.csv", help="other runs of A's build")
    parser.add_argument("--min-ns", type=nonnegative, default=20.0, help="time cases below this in A are left out")
    parser.add_argument("--count-band", type=nonnegative, default=0.01, help="the band of a count (default 0.01)")
    parser.add_argument("--normalize", action="store_true", help="divide every ratio by the median ratio")
    parser.add_argument("--all", action="store_true", help="print every case, not the 20 largest differences")
    parser.add_argument("--agreement", action="store_true",
                        help="the published cells' agreement: each case's ratio to the same run's C floor "
                             "(--reference cFunctionPointer unless given, --min-ns 0), the share within ±5 %% and "
                             "±10 %%, and every cell beyond ±5 %%; then how often each run's figures lie inside the "
                             "other's intervals (its coverage)")
    arguments = parser.parse_args(argv)
    if arguments.agreement:
        if arguments.column and arguments.column in results_csv.COUNTS:
            parser.error("--agreement compares times, not counts")
        arguments.reference = arguments.reference or results_csv.headline()["floor"]
        arguments.min_ns = 0.0
    return arguments


def main(argv):
    arguments = parse_arguments(argv[1:])
    paths, column, reference, rerun_paths = arguments.paths, arguments.column, arguments.reference, arguments.reruns
    normalize, show_all, minimum, count_band = arguments.normalize, arguments.all, arguments.min_ns, arguments.count_band
    result = compare(paths, column, reference, rerun_paths, normalize, minimum, count_band, usage=__doc__)
    if arguments.agreement:
        cells, within5, within10, beyond = agreement(result)
        headline = results_csv.headline()["benchmark"]
        print(f"published cells ({headline}, every target responding, widths {', '.join(map(str, PUBLISHED_WIDTHS))}; "
              f"{', '.join(PUBLISHED_STRATEGIES)}), each as its ratio to the same run's {reference}:")
        print(f"A: {result.label_a}")
        print(f"B: {result.label_b}")
        print(f"{cells} cells: {within5 * 100:.0f} % agree within ±5 %, {within10 * 100:.0f} % within ±10 %; "
              f"{len(beyond)} beyond ±5 %:")
        for name, x, y, ratio, *_ in beyond:
            print(f"{ratio:7.3f}  {name}: {x:.3f} -> {y:.3f}{'  (beyond ±10 %)' if abs(ratio - 1) > 0.10 else ''}")
        family = [p for p in result.pairs if p[0].startswith(headline + "/")]
        if family:
            shares = [sum(abs(p[3] - 1) <= band for p in family) / len(family) for band in (0.05, 0.10)]
            print(f"every {headline} case, likewise ({len(family)}): {shares[0] * 100:.0f} % within ±5 %, "
                  f"{shares[1] * 100:.0f} % within ±10 %")
        for line in coverage(paths):
            print(line)
        return 0
    pairs = sorted(result.pairs, key=lambda p: magnitude(p[5]), reverse=True)
    what = f"{result.column} ÷ {reference}'s" if reference else result.column
    print(f"{'ratio':>7} {'band':>6}  verdict  case: A -> B ({what})")
    for name, x, y, _, band, ratio, verdict in pairs if show_all else pairs[:20]:
        print(f"{ratio:7.3f} {band * 100:5.1f}%  {verdict:7s}  {name}: {x:.6g} -> {y:.6g}")
    print(f"A: {result.label_a}")
    print(f"B: {result.label_b}")
    if not result.is_count:
        noise = f"; between processes from A and {result.reruns} rerun(s) of its build" if result.reruns else ""
        print(f"band: {result.z:.2f} standard deviations of each case's noise within both runs{noise}, at least 2 %")
    scope = "" if result.is_count else f" >= {minimum} ns"
    print(f"{len(pairs)} cases with {result.column}{scope} in A; median ratio B/A {result.drift:.3f}"
          f"{' (divided out)' if normalize else ''}; "
          f"{result.verdicts['slower']} slower, {result.verdicts['faster']} faster, "
          f"{result.verdicts['same']} within their noise")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    sys.exit(main(sys.argv))
