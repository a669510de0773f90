#!/usr/bin/env python3
"""Merge results CSVs from several machines, toolchains or runs into one.

usage: scripts/merge A.csv B.csv ... --output merged.csv

Every row keeps its own metadata (host, cpu, swift_version, commit, timestamp, build), so the merged file says which
run each row came from; `scripts/plot --compare merged.csv` draws one panel per run, and `scripts/compare` compares
two runs. Columns are the union of the inputs' (a column a file lacks is left empty in its rows). A case measured
twice by the same run (same host, cpu, toolchain and timestamp) is an error naming both places. The output is written
atomically. Exits 2 on bad usage or a malformed input, naming the file and line.
"""
import argparse
import sys

import results_csv


def main(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/merge", description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", metavar="RUN.csv", help="results CSVs to merge")
    parser.add_argument("--output", required=True, metavar="merged.csv", help="where to write the merged CSV")
    arguments = parser.parse_args(argv[1:])
    inputs, output = arguments.inputs, arguments.output
    header, merged, seen, runs = [], [], {}, {}
    for path in inputs:
        try:
            columns, rows = results_csv.read(path)
        except results_csv.Malformed as error:
            results_csv.fail(str(error))
        header += [column for column in columns if column not in header]
        for row in rows:
            key = (results_csv.run(row), row["timestamp"], results_csv.case(row))
            if key in seen:
                results_csv.fail(f"{path}:{row['_line']}: {results_csv.case(row)} of run {key[0]} at {key[1]} "
                                 f"is also at {seen[key]}")
            seen[key] = f"{path}:{row['_line']}"
            runs.setdefault((results_csv.run(row), row["commit"]), 0)
            runs[(results_csv.run(row), row["commit"])] += 1
            merged.append(row)
    try:
        results_csv.write_atomically(output, header, merged)
    except OSError as error:
        results_csv.fail(f"could not write {output}: {error.strerror or error}")
    print(f"wrote {len(merged)} rows from {len(inputs)} files to {output}")
    for (run, commit), count in runs.items():
        print(f"  {count:5d} rows  {run} · commit {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
