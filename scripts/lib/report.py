#!/usr/bin/env python3
"""Write a static HTML report of a results CSV: an index with the decision guide and the summary, a page per
benchmark family with its charts and a table that sorts on a click, the comparison with the committed baseline and
with another run, and the history chart. It works offline from the folder it is written to: no CDN, no server.

usage: scripts/report [RESULTS.csv] [--output DIR] [--against RUN.csv] [--gate RECORDS.csv] [--baseline BASELINE.csv]
                      [--history HISTORY.csv] [--second-harness HARNESS.csv]

RESULTS.csv      the run to report (default Results/results.csv, with its .charts.json beside it).
--output DIR     where to write it (default .build/report); the folder is replaced whole, atomically.
--against RUN    another run: every case's time compared with it (scripts/compare's verdicts, slower first).
--gate RECORDS   the gate's counts of this tree (default .build/gate-current.csv, which `bench check` writes, when it
                 exists), compared with --baseline (default Results/baselines/<os>-<arch>-<swift version>.csv).
--history CSV    scripts/history's CSV (default Results/history.csv, when it exists): the history chart.
--second-harness CSV
                 scripts/second-harness's output (default .build/second-harness.csv, when it exists): how the
                 headline cells timed by a second, independent harness agree with this run.

Every table and chart is drawn by the code that prints and plots them elsewhere: `bench guide` (the decision guide)
and `bench summary` (the one-screen summary), run through `swift run -c release bench`; scripts/lib/plot.py (the
charts) and scripts/lib/compare.py (the verdicts), imported. A table taken from a CSV names its file and slice
(data-csv, data-slice), so that a check can count its rows.
Exits 2 on bad arguments or a malformed file (named with its line), 0 when the report is written.
"""
import argparse
import contextlib
import csv
import html
import io
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare
import plot
import results_csv
import second_harness

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = os.path.join(ROOT, "scripts", "report-assets")
# The columns a family's table shows, in this order, when any of its rows has a value.
METRICS = ("ns_per_delivery", "ns_per_op_median", "ns_per_op_p10", "ns_per_op_p90", "mallocs_per_op", "bytes_per_op",
           "retains_per_op", "releases_per_op", "cache_misses_per_delivery", "heap_bytes_per_unit",
           "spread_mad_over_median", "samples", "iterations")


def history_slice():
    """The history page's rows: the headline benchmark and message (Results/headline.json) at width 16, dense."""
    headline = results_csv.headline()
    return {"benchmark": headline["benchmark"], "message": headline["message"], "width": "16", "responders": "16"}


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/report", description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="?", default="Results/results.csv", metavar="RESULTS.csv")
    parser.add_argument("--output", default=".build/report", metavar="DIR")
    parser.add_argument("--against", metavar="RUN.csv")
    parser.add_argument("--gate", metavar="RECORDS.csv")
    parser.add_argument("--baseline", metavar="BASELINE.csv")
    parser.add_argument("--history", metavar="HISTORY.csv")
    parser.add_argument("--second-harness", metavar="HARNESS.csv")
    options = vars(parser.parse_args(argv[1:]))
    for name in ("against", "gate", "baseline", "history"):
        if options[name] and not os.path.exists(options[name]):
            parser.error(f"--{name}: {options[name]}: no such file")
    if options["second_harness"] is None and os.path.exists(".build/second-harness.csv"):
        options["second_harness"] = ".build/second-harness.csv"
    if options["gate"] is None and os.path.exists(".build/gate-current.csv"):
        options["gate"] = ".build/gate-current.csv"
    if options["history"] is None and os.path.exists("Results/history.csv"):
        options["history"] = "Results/history.csv"
    return options


# Markdown (what `bench guide` prints) to HTML: tables, bullets, paragraphs; `code` and **bold** inline.

def inline(text):
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)


def markdown(lines):
    out, table, bullets = [], [], []

    def flush():
        if table:
            cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in table
                     if not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", row.strip())]
            head = "".join(f"<th>{inline(c)}</th>" for c in cells[0])
            body = "\n".join("<tr>" + "".join(cell(c, label=h) for c, h in zip(row, cells[0])) + "</tr>"
                              for row in cells[1:])
            out.append(f"<div class='fit'><table class='sortable'><thead><tr>{head}</tr></thead>"
                       f"<tbody>\n{body}\n</tbody></table></div>")
            table.clear()
        if bullets:
            out.append("<ul>" + "".join(f"<li>{inline(b)}</li>" for b in bullets) + "</ul>")
            bullets.clear()

    for line in lines:
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("- "):
            bullets.append(line[2:])
        elif line.strip():
            out.append(f"<p class='muted'>{inline(line.strip())}</p>")
    flush()
    return "\n".join(out)


def cell(text, value=None, label=None):
    """A table cell; `label` is its column's name, which a narrow window shows beside it (report.css)."""
    number = re.match(r"^[-+]?[0-9.]+", text) is not None
    attributes = " class='number'" if number else ""
    if value is not None:
        attributes += f" data-value='{value}'"
    if label is not None:
        attributes += f" data-label='{html.escape(re.sub(r'[`*]', '', label))}'"
    return f"<td{attributes}>{inline(text)}</td>"


def data_table(rows, columns, csv_name, slice_):
    """A table of CSV rows; `slice_` is the filter that selects them from `csv_name` (column -> value)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "\n".join("<tr>" + "".join(cell(str(r.get(c, "")), label=c) for c in columns) + "</tr>" for r in rows)
    return (f"<div class='fit'><table class='sortable' data-csv='{html.escape(csv_name)}'"
            f" data-slice='{html.escape(json.dumps(slice_))}'><thead><tr>{head}</tr></thead>"
            f"<tbody>\n{body}\n</tbody></table></div>")


class Site:
    """The report's pages, written into `folder`, each with the same header, navigation and footer."""

    def __init__(self, folder, runs, families):
        self.folder, self.runs, self.families = folder, runs, families

    def write(self, name, title, body):
        nav = [("index.html", "Summary")] + [(page(f), f) for f in self.families] \
            + [("compare.html", "Comparison"), ("history.html", "History"), ("machines.html", "Machines"),
               # The documentation, published beside the report (/Fanout/ and /Fanout/report/).
               ("/Fanout/documentation/fanout/", "Documentation")]
        links = "".join(f"<li><a href='{href}'>{html.escape(label)}</a></li>" for href, label in nav)
        runs = "; ".join(f"{html.escape(results_csv.run(r))}, commit <code>{html.escape(r['commit'])}</code>,"
                         f" {html.escape(r['timestamp'])}" for r in self.runs)
        document = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Fanout benchmark report</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="report.css">
</head>
<body>
<header><a class="home" href="index.html">Fanout benchmark report</a><nav><ul>{links}</ul></nav></header>
<main>
<h1>{html.escape(title)}</h1>
{body}
</main>
<footer>Run{'s' if len(self.runs) > 1 else ''}: {runs}. Written by <code>scripts/report</code>.</footer>
<script src="report.js"></script>
</body>
</html>
"""
        with open(os.path.join(self.folder, name), "w") as handle:
            handle.write(document)


def page(family):
    return f"family-{family}.html"


def figure(file, title):
    return (f"<figure><a href='plots/{file}.svg'><img src='plots/{file}.png' alt='{html.escape(title)}'></a>"
            f"<figcaption>{html.escape(title)} (<a href='plots/{file}.svg'>SVG</a>)</figcaption></figure>")


def quietly(function, *arguments):
    """Runs a printer or a plotter, keeping what it prints to stdout off the report's own output."""
    with contextlib.redirect_stdout(io.StringIO()):
        return function(*arguments)


def guarded(function, *arguments):
    """(value, None), or (None, the message) when the function exits as a failing command-line script does."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            return quietly(function, *arguments), None
    except SystemExit as exit_:
        return None, (errors.getvalue().strip() or str(exit_.code))


class ReportError(Exception):
    """The report cannot be written: the message says why; `status` is the exit status."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def bench(*arguments):
    """(stdout, None) of `swift run -c release bench ARGUMENTS`, or (None, its error) when the CSV lacks a row it
    needs (exit 1); raises `ReportError` on any other failure, a build's included."""
    done = subprocess.run(["swift", "run", "-c", "release", "bench", *arguments], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    problem = errors[-1] if errors else f"bench {' '.join(arguments)} exited {done.returncode}"
    if done.returncode == 1:
        return None, problem
    if done.returncode != 0:
        raise ReportError(f"swift run -c release bench {' '.join(arguments)}: {problem}")
    return done.stdout, None


def index_page(site, options, rows, specs):
    path = os.path.abspath(options["results"])
    if path.startswith(ROOT + os.sep):
        path = os.path.relpath(path, ROOT)  # as the guide names its source
    body = [("<p>What it costs to forward one delegate message to many targets, strategy by strategy, from "
            f"<code>{html.escape(options['results'])}</code> ({len(rows)} rows; <a href='data/results.csv'>the"
            " CSV</a>). Every table sorts on a click of its header.</p>")]
    body.append("<h2>Which strategy should I use?</h2>")
    guide, problem = bench("guide", path)
    if problem:
        body.append(f"<p class='muted'>No decision guide: {html.escape(problem)}.</p>")
    else:
        body.append(markdown(guide.splitlines()))
    body.append("<h2>The summary</h2><p>As <code>swift run -c release bench</code> prints it after a run: the"
                " widths screens have (1, 4) beside the headline width.</p>")
    summary, problem = bench("summary", path)
    if problem:
        body.append(f"<p class='muted'>No summary: {html.escape(problem)}.</p>")
    else:
        body.append(f"<div class='fit'><pre>{html.escape(summary)}</pre></div>")
    body += second_harness_section(options, options["results"])
    families = "".join(f"<li><a href='{page(f)}'>{html.escape(f)}</a>: {sum(r['benchmark'] == f for r in rows)}"
                       f" rows, {sum(s.get('drawn') and chart_family(s) == f for s in specs)} charts</li>"
                       for f in site.families)
    body.append(f"<h2>Benchmark families</h2><ul>{families}</ul>"
                "<p><a href='compare.html'>The comparison</a> with the committed baseline and with another run;"
                " <a href='history.html'>the history</a> of the gate's counts; <a href='machines.html'>the"
                " machines</a>, every CPU recorded, side by side.</p>")
    site.write("index.html", "Fanout: which dispatch strategy, at what cost", "\n".join(body))


def second_harness_section(options, results):
    """The second harness's agreement with this run (scripts/second-harness), when its CSV is given or exists."""
    if not options["second_harness"]:
        return []
    try:
        rows, title, _ = second_harness.agreement(options["second_harness"], results)
    except (OSError, results_csv.Malformed) as error:
        return [f"<h2>A second harness</h2><p class='muted'>Not compared: {html.escape(str(error))}.</p>"]
    head = ["strategy", "width", "second harness ÷ its C loop", "this run ÷ cFunctionPointer", "harness ÷ run"]
    body = "\n".join("<tr>" + cell(strategy, label=head[0]) + cell(str(width), label=head[1])
                     + cell(f"{mine:.2f}", label=head[2]) + cell(f"{theirs:.2f}", label=head[3])
                     + cell(f"{quotient:.2f}", label=head[4]) + "</tr>"
                     for strategy, width, mine, theirs, quotient in rows)
    agree = sum(abs(q - 1) <= second_harness.BAND for *_, q in rows)
    header = "".join(f"<th>{h}</th>" for h in head)
    return ["<h2>A second harness</h2>",
            (f"<p>The headline cells timed again by <code>scripts/second-harness</code>, which shares no code with"
             f" the suite ({html.escape(title)}), against this run's {second_harness.MESSAGE}: {agree} of {len(rows)}"
             f" cells agree within ±{second_harness.BAND:.0%}. A cell that disagrees is one of the two runs' slowed"
             f" cases or a difference to explain.</p>"),
            (f"<div class='fit'><table class='sortable'><thead><tr>{header}</tr></thead><tbody>\n{body}\n"
             "</tbody></table></div>")]


def chart_family(spec):
    return spec.get("parameters", {}).get("benchmark")


def family_page(site, family, rows, specs):
    chosen = [r for r in rows if r["benchmark"] == family]
    columns = list(results_csv.CASE) + [c for c in METRICS if any(r.get(c, "") != "" for r in chosen)]
    if len({r["commit"] for r in chosen}) > 1:
        columns += ["host", "commit"]
    charts = "".join(figure(s["file"], s["title"]) for s in specs if s.get("drawn") and chart_family(s) == family)
    body = (charts or "<p class='muted'>No chart is declared for this family.</p>") \
        + f"<h2>Every case ({len(chosen)})</h2>" + data_table(chosen, columns, "data/results.csv",
                                                               {"benchmark": family})
    site.write(page(family), f"Family: {family}", body)


def verdict_table(result, metric_column=False):
    head = ["case"] + (["metric"] if metric_column else []) + ["A", "B", "ratio B/A", "band", "verdict"]
    lines = []
    for name, x, y, _, band, ratio, verdict, *metric in result:
        labels = iter(head)
        cells = [cell(name, label=next(labels))] + ([cell(metric[0], label=next(labels))] if metric_column else []) \
            + [cell(f"{x:.6g}", label=next(labels)), cell(f"{y:.6g}", label=next(labels)),
               cell(f"{ratio:.3f}", label=next(labels)), cell(f"{band * 100:.1f} %", label=next(labels)),
               f"<td class='verdict' data-label='verdict'>{verdict}</td>"]
        lines.append(f"<tr class='{verdict}'>" + "".join(cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return (f"<div class='fit'><table class='sortable'><thead><tr>{header}</tr></thead>"
            f"<tbody>\n" + "\n".join(lines) + "\n</tbody></table></div>")


def baseline_of(rows):
    version = re.search(r"\d+\.\d+(\.\d+)?", rows[0]["swift_version"])
    name = f"{platform.system().lower()}-{platform.machine()}-{version.group(0) if version else 'unknown'}.csv"
    return os.path.join("Results", "baselines", name)


def compare_page(site, options, rows):
    body = []
    gate, baseline = options["gate"], options["baseline"] or baseline_of(rows)
    body.append("<h2>The gate's counts against the committed baseline</h2>")
    if gate and os.path.exists(baseline):
        found, problems = [], []
        for metric in results_csv.COUNTS:
            result, problem = guarded(compare.compare, [baseline, gate], metric)
            if problem:
                problems.append(f"{metric}: {problem}")
                continue
            found += [pair + [metric] for pair in result.pairs]
        found = compare.regressions_first(found)
        counts = {v: sum(p[6] == v for p in found) for v in ("slower", "faster", "same")}
        body.append(f"<p>A: <code>{html.escape(baseline)}</code> (committed); B: <code>{html.escape(gate)}</code>."
                    f" {len(found)} counts: {counts['slower']} higher, {counts['faster']} lower, {counts['same']}"
                    " within 1 % (the counts are deterministic). Higher counts first. The gate itself"
                    " (<code>swift run -c release bench check</code>) applies the thresholds of"
                    " <code>Results/thresholds.csv</code>.</p>")
        body += [f"<p class='muted'>{html.escape(p)}</p>" for p in problems]
        body.append(verdict_table(found, metric_column=True))
    else:
        body.append(f"<p class='muted'>Not compared: {'no gate records given' if not gate else 'no ' + baseline}."
                    " <code>swift run -c release bench check</code> writes <code>.build/gate-current.csv</code>;"
                    " <code>--gate</code> and <code>--baseline</code> name others.</p>")
    body.append("<h2>Times against another run</h2>")
    if options["against"]:
        result, problem = guarded(compare.compare, [options["against"], options["results"]], None, None, (), True)
        if problem:
            body.append(f"<p class='muted'>Not compared: {html.escape(problem)}</p>")
        else:
            v = result.verdicts
            body.append(f"<p>A: {html.escape(result.label_a)}; B: {html.escape(result.label_b)}. Median ratio B/A"
                        f" {result.drift:.3f}, divided out (this VM's speed drifts between hours); a verdict needs"
                        f" {result.z:.2f} standard deviations of both runs' noise, at least 2 %. {v['slower']} slower,"
                        f" {v['faster']} faster, {v['same']} within their noise; slower first.</p>")
            body.append(verdict_table(result.regressions_first()))
    else:
        body.append("<p class='muted'>Not compared: give <code>--against RUN.csv</code>.</p>")
    site.write("compare.html", "Comparison", "\n".join(body))


def history_page(site, options, out):
    path = options["history"]
    if not path or not os.path.exists(path):
        site.write("history.html", "History", "<p class='muted'>No history CSV: <code>scripts/history</code> writes"
                                              " <code>Results/history.csv</code>.</p>")
        return
    slice_ = history_slice()
    pattern = "^" + "/".join(slice_.get(c, "[^/]+") for c in results_csv.CASE) + "$"
    shutil.copy(path, os.path.join(out, "data", "history.csv"))
    try:
        fig = quietly(plot.history, path, pattern)
    except (KeyError, ValueError) as error:
        raise ReportError(f"{path}: not a history CSV (scripts/history writes one): {error!r}", status=2) from None
    chart = ""
    if fig is not None:
        quietly(plot.save, fig, os.path.join(out, "plots"), "history")
        chart = figure("history", f"Instructions per message over the commits, {pattern}")
    with open(path, newline="") as handle:
        chosen = [r for r in csv.DictReader(handle) if all(r.get(k) == v for k, v in slice_.items())]
    columns = ["order", "commit", "date", "status", "measurement_changed", "strategy", "mallocs_per_op",
               "retains_per_op", "releases_per_op", "instructions_per_op"]
    body = (f"<p>The gate's counts of every strategy for <code>didScroll</code> at width 16, commit by commit, from"
            f" <code>{html.escape(path)}</code> (<a href='data/history.csv'>the CSV</a>).</p>{chart}"
            f"<h2>The counts ({len(chosen)} rows)</h2>"
            + data_table(chosen, columns, "data/history.csv", slice_))
    site.write("history.html", "History", body)


MACHINE_STRATEGIES = ("existentialArray", "closureTable", "selectorDictionary", "weakArray", "lifetimeBound",
                      "lifetimeBoundToOwner", "concurrent", "handWrittenLoop", "weakBoxMulticast",
                      "cFunctionPointerAtomicPair")


def machines_page(site):
    """Every CPU model the project has recorded runs on (Results/records/*.csv, written by `bench combine`), side by
    side: each strategy's didScroll figure at the published widths as a ratio to that CPU's own C floor
    (`cFunctionPointer`), the mean over the CPU's recorded runs."""
    folder = os.path.join(ROOT, "Results", "records")
    records = sorted(name for name in os.listdir(folder) if name.endswith(".csv")) if os.path.isdir(folder) else []
    machines = []
    slice_ = results_csv.headline()
    for name in records:
        path = os.path.join(folder, name)
        try:
            _, rows = results_csv.read(path)
        except results_csv.Malformed as error:
            raise ReportError(str(error), status=2) from None
        figures, runs = {}, set()
        for row in rows:
            if (row["benchmark"], row["message"]) == (slice_["benchmark"], slice_["message"]) \
                    and row["width"] == row["responders"]:
                figures.setdefault((row["strategy"], int(row["width"])), []).append(float(row["ns_per_delivery"]))
                runs.add(row["timestamp"])
        mean = {key: statistics.mean(values) for key, values in figures.items()}
        machines.append((rows[0]["cpu"] if rows else name, len(runs), mean))
    if not machines:
        site.write("machines.html", "Machines", "<p class='muted'>No CPU has recorded runs: <code>bench combine</code>"
                                                " writes <code>Results/records/</code>.</p>")
        return
    widths = sorted({width for _, _, mean in machines for (strategy, width) in mean if width in (1, 4, 64)})
    head = "<th>strategy</th><th>width</th>" + "".join(
        f"<th>{html.escape(cpu)}, {runs} runs</th>" for cpu, runs, _ in machines)
    body_rows = []
    for strategy in MACHINE_STRATEGIES:
        for width in widths:
            cells = []
            for cpu, _, mean in machines:
                figure, floor = mean.get((strategy, width)), mean.get((slice_["floor"], width))
                text = f"{figure / floor:.2f}" if figure and floor else "–"
                cells.append(cell(text, label=f"{cpu}"))
            if any("–" not in c for c in cells):
                body_rows.append(f"<tr>{cell(f'`{strategy}`', label='strategy')}{cell(str(width), label='width')}"
                                 + "".join(cells) + "</tr>")
    table = (f"<div class='fit'><table class='sortable'><thead><tr>{head}</tr></thead><tbody>\n"
             + "\n".join(body_rows) + "\n</tbody></table></div>")
    text = ("<p>Each CPU model the suite has recorded runs on (<code>Results/records/</code>, written by <code>bench"
            " combine</code>), side by side: each strategy's <code>didScroll</code> figure, the mean over the CPU's"
            " recorded runs, divided by that CPU's own C floor (<code>cFunctionPointer</code>) at the same width. A"
            " strategy that pays atomics per message (<code>weakArray</code>, <code>concurrent</code>, the C loop"
            " with an atomic pair) moves most between CPUs.</p>")
    site.write("machines.html", "Machines", text + table)


def main(argv):
    options = parse(argv)
    path = options["results"]
    try:
        _, rows = results_csv.read(path)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    if not rows:
        results_csv.fail(f"{path}: no rows")
    # Every input is read before anything is written: a malformed one is refused, naming its file and line.
    for name in ("against", "gate", "baseline"):
        if options[name]:
            try:
                results_csv.read(options[name], records=name != "against")
            except results_csv.Malformed as error:
                results_csv.fail(str(error))
    manifest = (path.removesuffix(".csv")) + ".charts.json"
    if not os.path.exists(manifest):
        results_csv.fail(f"{manifest}: missing (bench writes it beside the CSV)")
    output = os.path.abspath(options["output"])
    parent = os.path.dirname(output)
    os.makedirs(parent, exist_ok=True)
    out = tempfile.mkdtemp(dir=parent, prefix=".report-")
    try:
        os.makedirs(os.path.join(out, "data"))
        shutil.copy(path, os.path.join(out, "data", "results.csv"))
        for asset in os.listdir(ASSETS):
            shutil.copy(os.path.join(ASSETS, asset), out)
        specs = quietly(plot.draw_declared, path, os.path.join(out, "plots"))
        runs = list({r["commit"] + r["host"] + r["timestamp"]: r for r in rows}.values())
        families = list(dict.fromkeys(r["benchmark"] for r in rows))
        site = Site(out, runs, families)
        index_page(site, options, rows, specs)
        for family in families:
            family_page(site, family, rows, specs)
        compare_page(site, options, rows)
        history_page(site, options, out)
        machines_page(site)
        os.chmod(out, 0o755)
        previous = None
        if os.path.exists(output):
            previous = tempfile.mkdtemp(dir=parent, prefix=".report-old-")
            os.rename(output, os.path.join(previous, "report"))
        os.rename(out, output)
        if previous:
            shutil.rmtree(previous)
    except ReportError as error:
        shutil.rmtree(out, ignore_errors=True)
        results_csv.fail(str(error), status=error.status)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    print(f"report: {len(families) + 4} pages in {options['output']} (open index.html)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
