"""Reading and writing results CSVs (what `bench` writes), shared by the scripts.

Every row carries its case (benchmark, strategy, message, width, responders) and the run's metadata (swift_version,
commit, host, cpu, timestamp, build), so rows of several runs can sit in one file and still say where they came from.
"""
import csv
import functools
import json
import os
import sys
import tempfile

CASE = ("benchmark", "strategy", "message", "width", "responders")
RUN = ("host", "cpu", "swift_version")
REQUIRED = CASE + ("ns_per_op_median", "ns_per_delivery") + RUN + ("commit", "timestamp")


class Malformed(Exception):
    """A file that is not a results CSV: the message names the file and line."""


COUNTS = ("mallocs_per_op", "retains_per_op", "releases_per_op", "instructions_per_op")


def read(path, records=False):
    """(header, rows) of a results CSV; each row a dict with its line number under '_line'. With `records`, the gate's
    records or a baseline (`bench check --records`, Results/baselines/*.csv) are accepted too: a case and its counts,
    no run metadata."""
    try:
        handle = open(path, newline="")  # noqa: SIM115 (closed by the `with` below, after the error is told apart)
    except OSError as error:
        raise Malformed(f"{path}: {error.strerror}") from error
    with handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if not header:
            raise Malformed(f"{path}:1: empty file, expected a results CSV header")
        required = REQUIRED
        if records and all(column in header for column in CASE) and any(column in header for column in COUNTS) \
                and "ns_per_op_median" not in header:
            required = CASE
        missing = [column for column in required if column not in header]
        if missing:
            raise Malformed(f"{path}:1: not a results CSV: no column {', '.join(missing)}")
        rows = []
        for fields in reader:
            line = reader.line_num
            if not fields:
                continue
            if len(fields) != len(header):
                raise Malformed(f"{path}:{line}: expected {len(header)} fields, got {len(fields)}")
            row = dict(zip(header, fields))
            for column in ("width", "responders"):
                if not row[column].isdigit():
                    raise Malformed(f"{path}:{line}: {column} must be a whole number, got '{row[column]}'")
            for column in [c for c in ("ns_per_op_median", "ns_per_delivery") if c in required]:
                try:
                    float(row[column])
                except ValueError:
                    raise Malformed(f"{path}:{line}: {column} must be a number, got '{row[column]}'") from None
            row["_line"] = line
            rows.append(row)
    return header, rows


def case(row):
    """The case's name, as `bench --filter` matches it."""
    return "/".join(str(row[column]) for column in CASE)


def run(row):
    """The run's machine and toolchain: `host · cpu · swift`."""
    return " · ".join(row[column] for column in RUN)


def write_atomically(path, header, rows):
    """Writes the CSV to a temporary file beside `path`, then renames it over `path`; refuses a `path` that exists and
    is not a regular file (`/dev/full`), which the rename would replace."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise OSError(0, "not a regular file: a results CSV is written beside it and renamed over it")
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".merge-", suffix=".csv")
    try:
        with os.fdopen(descriptor, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=header, extrasaction="ignore", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # mkstemp's file is private; the result should not be
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def fail(message, status=2):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(status)


HEADLINE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Results",
                        "headline.json")


@functools.cache
def headline():
    """The slice of the results the decision guide reads, as `bench headline` declares it (Results/headline.json):
    {"benchmark", "message", "floor"}. The scripts take the family's name from it, and name none."""
    try:
        with open(HEADLINE, encoding="utf-8") as handle:
            declared = json.load(handle)
    except OSError as error:
        fail(f"{HEADLINE}: {error.strerror} (`bench headline` writes it)")
    except UnicodeDecodeError:
        fail(f"{HEADLINE}: not UTF-8 (`bench headline` writes it)")
    except json.JSONDecodeError as error:
        fail(f"{HEADLINE}:{error.lineno}: not what `bench headline` writes ({error.msg})")
    if not isinstance(declared, dict):
        fail(f"{HEADLINE}:1: not a JSON object (`bench headline` writes it)")
    missing = [key for key in ("benchmark", "message", "floor") if not isinstance(declared.get(key), str)]
    if missing:
        fail(f"{HEADLINE}:1: no {', '.join(missing)} (`bench headline` writes it)")
    return declared


def relative_tolerance(thresholds_path, metric, row):
    """The `max_relative_increase` that the gate's thresholds file allows `row` (a gate record) for `metric`: the
    most specific matching rule wins, a strategy over a benchmark over `*`, as `bench check` decides."""
    with open(thresholds_path, newline="") as handle:
        rules = [rule for rule in csv.DictReader(handle) if rule["metric"] == metric
                 and rule["benchmark"] in ("*", row["benchmark"]) and rule["strategy"] in ("*", row["strategy"])]
    if not rules:
        raise Malformed(f"{thresholds_path}: no rule for {metric} matches {case(row)}")
    best = max(rules, key=lambda rule: 2 * (rule["strategy"] != "*") + (rule["benchmark"] != "*"))
    return float(best["max_relative_increase"])
