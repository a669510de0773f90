#!/usr/bin/env python3
"""Draw the charts a results CSV declares into Results/plots/ (PNG + SVG).

usage: scripts/plot [Results/results.csv] [--output-dir DIR]   (the wrapper sets up matplotlib)
       scripts/plot --compare merged.csv [--output-dir DIR]
       scripts/plot --history Results/history.csv [--cases REGEX]

`--compare` reads a CSV merged from several runs (scripts/merge) and draws compare.png: one column per run
(host, CPU, toolchain), each strategy's time per delivery as a ratio to that run's own existentialArray and C floor.
`--history` reads scripts/history's CSV and draws history.png: instructions per message over the commits.

The bench writes, beside each CSV, the charts its benchmark families declare
(`results.charts.json`): a file name, a kind, a title and the kind's
parameters. Each kind is a function below; every strategy, message and width
comes from the CSV's rows, in the order they appear there.
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_csv

PALETTE = plt.get_cmap("tab20").colors
MARKERS = "os^Dv<>ph*XP"


def load(path):
    """The rows of a results CSV, their numbers converted; a malformed file stops the script with its name and line
    (exit 2)."""
    try:
        _, rows = results_csv.read(path)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    if not rows:
        results_csv.fail(f"{path}: no rows")
    for row in rows:
        for key in ("width", "responders"):
            row[key] = int(row[key])
        for key in ("ns_per_op_median", "ns_per_delivery", "deliveries_per_second"):
            try:
                row[key] = float(row[key])
            except (KeyError, ValueError):
                results_csv.fail(f"{path}:{row['_line']}: {key} must be a number, got '{row.get(key)}'")
    return rows


def ordered(values):
    """The distinct values, in the order they first appear."""
    return list(dict.fromkeys(values))


class Styles:
    """One colour and marker per strategy name, in order of first appearance in the run."""

    def __init__(self, rows):
        self.names = ordered(r["strategy"] for r in rows)

    def __call__(self, name):
        index = self.names.index(name) if name in self.names else len(self.names)
        return {"color": PALETTE[index % 20], "marker": MARKERS[index % len(MARKERS)]}


def footer(fig, rows):
    meta = rows[0]
    fig.text(0.01, 0.005, f"{meta['cpu']} · {meta['swift_version']} · commit {meta['commit']} · {meta['timestamp']}",
             fontsize=7, color="0.4", ha="left", va="bottom")


def save(fig, out, name):
    # A figure with one legend for all its panels keeps the right edge for it.
    fig.tight_layout(rect=(0, 0.03, 0.85 if getattr(fig, "shared_legend", False) else 1, 1))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=120)
    plt.close(fig)
    print(f"wrote {out}/{name}.png and .svg")


def log_axes(ax, xlabel, ylabel, title, legend_size=8):
    """Log-log axes (base 2 across), labelled, gridded, with a legend."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=legend_size)


def shared_legend(fig, axes):
    """One legend for every panel, beside them, so that no line is hidden under it."""
    labelled = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            labelled.setdefault(label, handle)
        if ax.get_legend():
            ax.get_legend().remove()
    fig.legend(labelled.values(), labelled.keys(), loc="center right", fontsize=8)
    fig.shared_legend = True


def dense(rows, benchmark):
    return [r for r in rows if r["benchmark"] == benchmark and r["responders"] == r["width"]]


def chosen_names(rows, parameters):
    """The strategies a chart draws, in order: its `strategies` (comma-separated) when it names them, else every
    strategy of the rows but its `except` ones."""
    present = ordered(r["strategy"] for r in rows)
    if parameters.get("strategies"):
        return [n for n in parameters["strategies"].split(",") if n in present]
    left_out = set(parameters.get("except", "").split(","))
    return [n for n in present if n not in left_out]


def distinct(names):
    """One colour of ten and one marker each, for a chart of at most ten series (`Styles` beyond that)."""
    colours = plt.get_cmap("tab10").colors
    return {n: {"color": colours[i % 10], "marker": MARKERS[i % len(MARKERS)]} for i, n in enumerate(names)}


def lines_by_message(rows, spec, style):
    """One panel per message: y against fan-out width, one line per strategy the chart draws (`chosen_names`)."""
    subset = dense(rows, spec["parameters"]["benchmark"])
    names = chosen_names(subset, spec["parameters"])
    subset = [r for r in subset if r["strategy"] in names]
    styles = distinct(names) if len(names) <= 10 else {n: style(n) for n in names}
    y = spec["parameters"].get("y", "ns_per_delivery")
    messages = ordered(r["message"] for r in subset)
    if not messages:
        return None
    columns = 2 if len(messages) > 1 else 1
    panel_rows = math.ceil(len(messages) / columns)
    fig, axes = plt.subplots(panel_rows, columns, figsize=(12, 4.25 * panel_rows), sharex=True, squeeze=False)
    for ax, message in zip(axes.flat, messages):
        for name in names:
            points = sorted((r["width"], r[y]) for r in subset if r["strategy"] == name and r["message"] == message)
            if len(points) > 1:
                ax.plot(*zip(*points), label=name, **styles[name])
        log_axes(ax, "fan-out width (targets, all responding)", f"{y.replace('_', ' ')} (median)", message, 7)
    for ax in list(axes.flat)[len(messages):]:
        ax.set_visible(False)
    shared_legend(fig, axes)
    return fig


def counters(rows, spec, style):
    """Mallocs, and retains + releases, per message for every strategy at one width."""
    p = spec["parameters"]
    subset = [r for r in dense(rows, p["benchmark"]) if r["width"] == int(p["width"]) and r["message"] == p["message"]]
    # Peers measured in another process (the Objective-C proxy) have no counters.
    subset = [r for r in subset if r["mallocs_per_op"] != ""]
    if not subset:
        return None
    names = chosen_names(subset, p)
    by_name = {r["strategy"]: r for r in subset}
    # Horizontal bars, one row per strategy: the names and the counts each have a line of their own.
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.38 * len(names) + 1.6), sharey=True)
    panels = [("mallocs per message", ("mallocs_per_op",)),
              ("retains + releases per message", ("retains_per_op", "releases_per_op"))]
    for ax, (title, keys) in zip(axes, panels):
        values = [sum(float(by_name[n][k]) for k in keys) for n in names]
        bars = ax.barh(names, values, color=[style(n)["color"] for n in names])
        ax.bar_label(bars, labels=[f"{v:g}" for v in values], fontsize=8, padding=3)
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlim(0, max(values + [1]) * 6)  # room for the labels after the longest bar
        ax.invert_yaxis()
        ax.set_xlabel(f"{title} (count, symmetric log)")
        ax.set_title(f"{title}, {p['message']}, width {p['width']}")
        ax.grid(True, axis="x", alpha=0.3)
    return fig


def ratio_heatmap(rows, spec, style):
    """Each strategy's y ÷ the reference's, per width: a heat map."""
    p = spec["parameters"]
    subset = [r for r in dense(rows, p["benchmark"]) if r["message"] == p["message"]]
    reference = {r["width"]: r["ns_per_delivery"] for r in subset if r["strategy"] == p["reference"]}
    if not reference:
        return None
    widths = sorted(reference)
    names = [n for n in chosen_names(subset, p) if n != p["reference"]]
    by_key = {(r["strategy"], r["width"]): r["ns_per_delivery"] for r in subset}
    grid = [[by_key.get((n, w), math.nan) / reference[w] for w in widths] for n in names]
    fig, ax = plt.subplots(figsize=(12, 0.45 * len(names) + 2))
    image = ax.imshow([[math.log10(v) if not math.isnan(v) and v > 0 else math.nan for v in line] for line in grid],
                      aspect="auto", cmap="magma_r")
    for i, line in enumerate(grid):
        for j, v in enumerate(line):
            if not math.isnan(v) and v > 0:
                ax.text(j, i, f"{v:.1f}×" if v < 10 else f"{v:.0f}×", ha="center", va="center", fontsize=7,
                        color="white" if math.log10(v) > 2 else "black")
    ax.set_xticks(range(len(widths)), [str(w) for w in widths])
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("fan-out width (targets, all responding)")
    ax.set_ylabel("strategy or peer")
    ticks = (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    bar = fig.colorbar(image, ax=ax, label=f"ratio to {p['reference']} (log scale)")
    low, high = image.get_clim()
    shown = [t for t in ticks if low <= math.log10(t) <= high] or [1]
    bar.set_ticks([math.log10(t) for t in shown], labels=[f"{t:g}×" for t in shown])
    ax.set_title(f"each cell: median ns per delivery ÷ {p['reference']}'s at the same width", fontsize=9)
    return fig


def overlay(rows, spec, style):
    """One benchmark's rows (by width) over another's, for the same message."""
    p = spec["parameters"]
    y = p.get("y", "ns_per_op_median")
    main = [r for r in dense(rows, p["benchmark"]) if r["message"] == p["message"]]
    if not main:
        return None
    widths = ordered(r["width"] for r in main)
    fig, ax = plt.subplots(figsize=(8, 5))
    for name in ordered(r["strategy"] for r in main):
        points = sorted((r["width"], r[y]) for r in main if r["strategy"] == name)
        if len(points) > 1:
            ax.plot(*zip(*points), label=f"{name} ({p['benchmark']})", **{**style(name), "linestyle": "--"})
    against = [r for r in dense(rows, p["against"]) if r["message"] == p["message"] and r["width"] in widths]
    if "strategies" in p:  # only these of the other benchmark's contenders
        against = [r for r in against if r["strategy"] in p["strategies"].split(",")]
    for name in ordered(r["strategy"] for r in against):
        points = sorted((r["width"], r[y]) for r in against if r["strategy"] == name)
        if len(points) > 1:
            ax.plot(*zip(*points), label=f"{name} ({p['against']})", **style(name))
    log_axes(ax, "receivers (depth or width)", f"{y.replace('_', ' ')}", spec["title"], 7)
    return fig


def setup(rows, spec, style):
    """Per target: adding N targets, and removing them ((add + remove) − add)."""
    subset = [r for r in rows if r["benchmark"] == spec["parameters"]["benchmark"]]
    if not subset:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    for name in ordered(r["strategy"] for r in subset):
        add = {r["width"]: r["ns_per_delivery"] for r in subset if r["strategy"] == name and r["message"] == "add"}
        both = {r["width"]: r["ns_per_delivery"] for r in subset if r["strategy"] == name and r["message"] == "addThenRemove"}
        widths = sorted(set(add) & set(both))
        if len(widths) > 1:
            axes[0].plot(widths, [add[w] for w in widths], label=name, **style(name))
            axes[1].plot(widths, [max(both[w] - add[w], 0.01) for w in widths], label=name, **style(name))
    for ax, title in zip(axes, ["add: ns per target (building N)", "remove: ns per target ((add+remove) − add)"]):
        log_axes(ax, "targets (N)", "ns per target (median)", title)
    return fig


def bars(rows, spec, style):
    """One bar per case of a benchmark (its message column as the label)."""
    p = spec["parameters"]
    subset = [r for r in rows if r["benchmark"] == p["benchmark"]]
    if not subset:
        return None
    scale = float(p.get("scale", "1"))
    values = [r[p["y"]] * scale for r in subset]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    drawn = ax.bar([r["message"] for r in subset], values, color=[style(r["strategy"])["color"] for r in subset],
                   label=", ".join(ordered(f"{r['strategy']}, width {r['width']}" for r in subset)))
    ax.bar_label(drawn, labels=[f"{v:.3g}" for v in values], fontsize=8)
    ax.set_xlabel(p.get("xlabel", "case"))
    ax.set_ylabel(p.get("ylabel", p["y"]))
    ax.legend(fontsize=8)
    return fig


def cold_vs_warm(rows, spec, style):
    """Per strategy, ns per delivery cold and warm by width; cache lines per delivery beside."""
    p = spec["parameters"]
    cold = dense(rows, p["benchmark"])
    if not cold:
        return None
    warm = {(r["strategy"], r["width"]): r["ns_per_delivery"] for r in dense(rows, p["warm"]) if r["message"] == p["message"]}
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    for name in ordered(r["strategy"] for r in cold):
        points = sorted((r["width"], r["ns_per_delivery"]) for r in cold if r["strategy"] == name)
        if len(points) < 2:
            continue
        axes[0].plot(*zip(*points), label=f"{name} cold", **style(name))
        hot = [(w, warm[(name, w)]) for w, _ in points if (name, w) in warm]
        if len(hot) > 1:
            axes[0].plot(*zip(*hot), **{**style(name), "linestyle": ":", "marker": None, "alpha": 0.6})
        lines = sorted((r["width"], float(r["cache_misses_per_delivery"])) for r in cold
                       if r["strategy"] == name and r.get("cache_misses_per_delivery") not in ("", None))
        if len(lines) > 1:
            axes[1].plot(*zip(*lines), label=name, **style(name))
    log_axes(axes[0], "fan-out width (targets, all responding)", "ns per delivery (median)",
             "cold (solid) and warm (dotted)", 7)
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("fan-out width (targets, all responding)")
    axes[1].set_ylabel("last-level data misses per delivery")
    axes[1].set_title("cache lines missed per delivery (callgrind cache simulation)")
    axes[1].grid(True, which="both", alpha=0.3)
    if axes[1].lines:
        axes[1].legend(fontsize=7)
    return fig


def work_overhead(rows, spec, style):
    """Dispatch-only time (no work) over time with work, per delivery, against the work per callback."""
    p = spec["parameters"]
    panels = [b for b in (p["warm"], p["cold"]) if any(r["benchmark"] == b for r in rows)]
    if not panels:
        return None
    widths = ordered(r["width"] for r in rows if r["benchmark"] == panels[0])
    fig, axes = plt.subplots(len(panels), len(widths), figsize=(4.5 * len(widths), 4 * len(panels)), squeeze=False)
    for i, benchmark in enumerate(panels):
        subset = [r for r in rows if r["benchmark"] == benchmark]
        for j, width in enumerate(widths):
            ax = axes[i][j]
            for name in ordered(r["strategy"] for r in subset):
                by_work = {int(r["message"][:-2]): r for r in subset if r["strategy"] == name and r["width"] == width}
                if 0 not in by_work:
                    continue
                bare = by_work[0]["ns_per_delivery"]
                points = sorted((w, 100 * bare / r["ns_per_delivery"]) for w, r in by_work.items() if w > 0)
                if points:
                    ax.plot(*zip(*points), label=name, **style(name))
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("work per callback (ns, nominal)")
            ax.set_ylabel("dispatch share of a delivery (%)")
            ax.set_title(f"{benchmark}, width {width}")
            ax.grid(True, which="both", alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=7)
    return fig


KINDS = {"lines-by-message": lines_by_message, "counters": counters, "ratio-heatmap": ratio_heatmap,
         "overlay": overlay, "setup": setup, "bars": bars, "cold-vs-warm": cold_vs_warm,
         "work-overhead": work_overhead}


def run_name(row):
    return f"{row['host']} · {row['cpu']} · {row['swift_version']} · {row['commit']} · {row['timestamp']}"


def compare_runs(rows, message=None):
    """One column per run (machine and toolchain) of a merged CSV: each strategy's time per delivery as a ratio to
    the same run's existentialArray (top) and to its C floor, cFunctionPointer (bottom), at each width, so that runs
    on machines of different speeds compare fairly."""
    slice_ = results_csv.headline()
    message = message or slice_["message"]
    subset = [r for r in dense(rows, slice_["benchmark"]) if r["message"] == message]
    runs = ordered(run_name(r) for r in subset)
    if not runs:
        return None
    references = ["existentialArray", slice_["floor"]]
    fig, axes = plt.subplots(2, len(runs), figsize=(6 * len(runs) + 2, 9), squeeze=False, sharey="row")
    style = Styles(subset)
    for column, run in enumerate(runs):
        mine = [r for r in subset if run_name(r) == run]
        for line, reference in enumerate(references):
            ax = axes[line][column]
            base = {r["width"]: r["ns_per_delivery"] for r in mine if r["strategy"] == reference}
            for name in ordered(r["strategy"] for r in mine):
                if name == reference:
                    continue
                points = sorted((r["width"], r["ns_per_delivery"] / base[r["width"]])
                                for r in mine if r["strategy"] == name and base.get(r["width"]))
                if len(points) > 1:
                    ax.plot(*zip(*points), label=name, **style(name))
            ax.axhline(1, color="0.3", linewidth=0.8)
            first = mine[0]
            version = first["swift_version"].replace("Swift version ", "").split(" (")[0]
            title = f"{first['host']}: {first['cpu']}\nSwift {version}, commit {first['commit']}, {first['timestamp'][:16]}"
            log_axes(ax, "fan-out width (targets, all responding)", f"time per delivery / {reference}",
                     title if line == 0 else f"ratio to {reference}", 6)
            if not base:
                ax.text(0.5, 0.5, f"no {reference} rows", transform=ax.transAxes, ha="center")
    shared_legend(fig, axes)
    fig.suptitle(f"{message}: each run against its own references ({len(runs)} runs)")
    return fig


def history(path, pattern):
    """Instructions per message of the cases matching `pattern`, commit by commit (scripts/history's CSV); the
    commits that changed the gate's own measurement are dashed lines."""
    import re
    with open(path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle)]
    commits = sorted({(int(r["order"]), r["commit"], r["measurement_changed"]) for r in rows})
    index = {commit: i for i, (_, commit, _) in enumerate(commits)}
    chosen = [r for r in rows if r.get("benchmark") and r["instructions_per_op"]
              and re.search(pattern, "/".join(r[k] for k in ("benchmark", "strategy", "message", "width", "responders")))]
    if not chosen:
        return None
    # At most about 60 commit labels across a 14-inch chart: every n-th commit is labelled.
    fig, ax = plt.subplots(figsize=(14, 6))
    names = ordered("/".join(r[k] for k in ("strategy", "message", "width", "responders")) for r in chosen)
    for n, name in enumerate(names):
        points = sorted((index[r["commit"]], float(r["instructions_per_op"])) for r in chosen
                        if "/".join(r[k] for k in ("strategy", "message", "width", "responders")) == name)
        ax.plot(*zip(*points), label=name, color=PALETTE[n % 20], marker=MARKERS[n % len(MARKERS)], markersize=4)
    for i, (_, commit, changed) in enumerate(commits):
        if changed:
            ax.axvline(i, color="0.5", linestyle="--", linewidth=0.8)
    ax.set_yscale("log")
    step = max(1, math.ceil(len(commits) / 60))
    ax.set_xticks(range(0, len(commits), step))
    ax.set_xticklabels([commit[:7] for _, commit, _ in commits][::step], rotation=90, fontsize=7)
    ax.set_ylabel("instructions per message (gate, callgrind)")
    ax.set_xlabel("commit (dashed: the commit changed the gate's own measurement)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_title(f"Instructions per message, commit by commit ({len(names)} gate cases, {len(commits)} commits)")
    fig.shared_legend = True
    return fig


def main(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/plot", description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="?", help="a results CSV (default Results/results.csv)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--compare", metavar="MERGED.csv", help="draw compare.png from a CSV merged by scripts/merge")
    what.add_argument("--history", metavar="HISTORY.csv", help="draw history.png from scripts/history's CSV")
    parser.add_argument("--cases", metavar="REGEX", help="with --history: the cases drawn")
    parser.add_argument("--output-dir", metavar="DIR", help="where to write the charts (default plots/ beside the CSV)")
    arguments = parser.parse_args(argv[1:])
    if (arguments.compare or arguments.history) and arguments.csv:
        parser.error(f"unexpected argument with --compare or --history: {arguments.csv}")
    if arguments.cases and not arguments.history:
        parser.error("--cases goes with --history")
    if arguments.history:
        if arguments.output_dir:
            parser.error("--history writes beside its CSV: no --output-dir")
        slice_ = results_csv.headline()
        pattern = arguments.cases or rf"^{slice_['benchmark']}/[^/]+/{slice_['message']}/16/16$"
        out = os.path.join(os.path.dirname(os.path.abspath(arguments.history)), "plots")
        os.makedirs(out, exist_ok=True)
        fig = history(arguments.history, pattern)
        if fig is None:
            sys.exit(f"{arguments.history}: no measured rows match {pattern}")
        save(fig, out, "history")
        return
    if arguments.compare:
        rows = load(arguments.compare)
        out = arguments.output_dir or os.path.join(os.path.dirname(os.path.abspath(arguments.compare)), "plots")
        os.makedirs(out, exist_ok=True)
        fig = compare_runs(rows)
        if fig is None:
            sys.exit(f"{arguments.compare}: no dense dispatch didScroll rows to compare")
        save(fig, out, "compare")
        return
    path = arguments.csv or "Results/results.csv"
    draw_declared(path, arguments.output_dir or os.path.join(os.path.dirname(os.path.abspath(path)), "plots"))


def draw_declared(path, out):
    """Draws every chart the CSV at `path` declares (its `.charts.json`) into `out`; returns the declarations, each
    with `drawn` set (False: the CSV has no rows for it). Also the charts of scripts/lib/report.py."""
    manifest = (path.removesuffix(".csv")) + ".charts.json"
    if not os.path.exists(manifest):
        sys.exit(f"{manifest}: missing (bench writes it beside the CSV)")
    try:
        with open(manifest) as handle:
            specs = json.load(handle)
    except OSError as error:
        results_csv.fail(f"{manifest}: {error.strerror}")
    except json.JSONDecodeError as error:
        results_csv.fail(f"{manifest}:{error.lineno}: not the chart declarations bench writes ({error.msg})")
    rows = load(path)
    style = Styles(rows)
    os.makedirs(out, exist_ok=True)
    for spec in specs:
        draw = KINDS.get(spec["kind"])
        if draw is None:
            sys.exit(f"{manifest}: unknown chart kind '{spec['kind']}' for {spec['file']}")
        fig = draw(rows, spec, style)
        spec["drawn"] = fig is not None
        if fig is None:
            print(f"no rows for {spec['file']}: skipped")
            continue
        if spec["kind"] != "overlay":
            fig.suptitle(spec["title"])
        footer(fig, rows)
        save(fig, out, spec["file"])
    return specs


if __name__ == "__main__":
    main(sys.argv)
