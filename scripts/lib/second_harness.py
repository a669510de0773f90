"""Compares the second harness's ratios (its CSV) with a results CSV's, cell by cell; prints the agreement.

usage: second_harness.py HARNESS.csv RESULTS.csv
"""

import argparse
import sys

import results_csv

MESSAGE = "didEndDragging"  # the suite's message of a reference and a value, as the harness's `changed(_:_:)`
BAND = 0.10


def read_harness(path):
    """(the harness's header line, {(strategy, width): (ns, ratio)})."""
    with open(path) as handle:
        lines = handle.read().splitlines()
    title = lines[0].lstrip("# ") if lines and lines[0].startswith("#") else ""
    cells = {}
    for number, line in enumerate(lines, 1):
        if not line or line.startswith(("#", "strategy,")):
            continue
        fields = line.split(",")
        if len(fields) != 4:
            raise results_csv.Malformed(f"{path}:{number}: expected strategy,width,ns_per_delivery,ratio_to_c_loop")
        try:
            cells[(fields[0], int(fields[1]))] = (float(fields[2]), float(fields[3]))
        except ValueError:
            raise results_csv.Malformed(f"{path}:{number}: not numbers: {line}") from None
    return title, cells


def agreement(harness_path, results_path):
    """Rows (strategy, width, harness ratio, suite ratio, harness ÷ suite) and the two runs' descriptions."""
    title, cells = read_harness(harness_path)
    _, rows = results_csv.read(results_path)
    ns = {(r["strategy"], int(r["width"])): float(r["ns_per_delivery"]) for r in rows
          if r["benchmark"] == results_csv.headline()["benchmark"] and r["message"] == MESSAGE and r["width"] == r["responders"]
          and r["ns_per_delivery"]}
    suite = f"{results_path}: commit {rows[0]['commit']}, {rows[0]['cpu']}" if rows else results_path
    out = []
    for (strategy, width), (_, ratio) in sorted(cells.items(), key=lambda item: (item[0][1], item[0][0])):
        if strategy == "cLoop":
            continue
        mine, floor = ns.get((strategy, width)), ns.get((results_csv.headline()["floor"], width))
        if mine is None or not floor:
            continue
        out.append((strategy, width, ratio, mine / floor, ratio / (mine / floor)))
    return out, title, suite


def main(argv):
    parser = argparse.ArgumentParser(prog="second_harness.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("harness", metavar="HARNESS.csv")
    parser.add_argument("results", metavar="RESULTS.csv")
    arguments = parser.parse_args(argv)
    try:
        rows, title, suite = agreement(arguments.harness, arguments.results)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    print(f"second harness: {title}")
    print(f"suite: {suite} ({MESSAGE}, ratio to {results_csv.headline()['floor']})")
    print(f"{'strategy':24} {'width':>5} {'harness':>8} {'suite':>8} {'h ÷ s':>7}")
    for strategy, width, mine, theirs, quotient in rows:
        flag = "" if abs(quotient - 1) <= BAND else f"  disagrees by more than {BAND:.0%}"
        print(f"{strategy:24} {width:5d} {mine:8.2f} {theirs:8.2f} {quotient:7.2f}{flag}")
    agree = sum(abs(q - 1) <= BAND for *_, q in rows)
    print(f"{agree} of {len(rows)} cells agree within ±{BAND:.0%} (each a ratio to its own harness's C loop)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
