#!/usr/bin/env python3
"""Draw the README's charts from a results CSV into Results/plots/ (PNG + SVG).

usage: scripts/plot [Results/results.csv]   (the wrapper sets up matplotlib)
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MESSAGES = ["didScroll", "didEndDragging", "shouldScrollToTop", "viewForZooming"]
STRATEGIES = ["existentialArray", "closureTable", "selectorDictionary", "weakArray", "lifetimeBound", "concurrent",
              "parameterPack"]
BASELINES = ["floor", "existentialFloor"]
PEERS = ["notificationCenter", "observation", "asyncStream", "objcForwardInvocation"]
PALETTE = plt.get_cmap("tab20").colors
STYLE = {name: dict(color=PALETTE[i % 20], marker="os^Dv<>ph*XP"[i % 12])
         for i, name in enumerate(STRATEGIES + BASELINES + PEERS + ["delegateChain"])}


def load(path):
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        sys.exit(f"{path}: no rows")
    for row in rows:
        for key in ("width", "responders"):
            row[key] = int(row[key])
        for key in ("ns_per_op_median", "ns_per_delivery"):
            row[key] = float(row[key])
    return rows


def footer(fig, rows):
    meta = rows[0]
    fig.text(0.01, 0.005, f"{meta['cpu']} · {meta['swift_version']} · commit {meta['commit']} · {meta['timestamp']}",
             fontsize=7, color="0.4", ha="left", va="bottom")


def save(fig, out, name):
    fig.tight_layout(rect=(0, 0.03, 1, 1))
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


def dense(rows, benchmark="dispatch"):
    return [r for r in rows if r["benchmark"] == benchmark and r["responders"] == r["width"]]


def delivery_vs_width(rows, out):
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), sharex=True)
    for ax, message in zip(axes.flat, MESSAGES):
        subset = [r for r in dense(rows) if r["message"] == message]
        for name in STRATEGIES + BASELINES + PEERS:
            points = sorted((r["width"], r["ns_per_delivery"]) for r in subset if r["strategy"] == name)
            if points:
                ax.plot(*zip(*points), label=name, **STYLE[name])
        log_axes(ax, "fan-out width (targets, all responding)", "ns per delivery (median)", message, 7)
    fig.suptitle("Cost per delivery vs fan-out width")
    footer(fig, rows)
    save(fig, out, "delivery-vs-width")


def counters_at_64(rows, out):
    subset = [r for r in dense(rows) if r["width"] == 64 and r["message"] == "didScroll"]
    # Peers measured in another process (the Objective-C proxy) have no counters.
    names = [n for n in STRATEGIES + BASELINES + PEERS
             if any(r["strategy"] == n and r["mallocs_per_op"] != "" for r in subset)]
    by_name = {r["strategy"]: r for r in subset}

    def value(name, *keys):
        cells = [by_name[name].get(k, "") for k in keys]
        return sum(float(c) for c in cells if c not in ("", None))

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    panels = [("mallocs per message", ("mallocs_per_op",)), ("retains + releases per message", ("retains_per_op", "releases_per_op"))]
    for ax, (title, keys) in zip(axes, panels):
        values = [value(n, *keys) for n in names]
        bars = ax.bar(names, values, color=[STYLE[n]["color"] for n in names], label=title)
        ax.bar_label(bars, labels=[f"{v:g}" for v in values], fontsize=7)
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(0, max(values + [1]) * 4)  # headroom for the bar labels
        ax.set_ylabel(f"{title} (count)")
        ax.set_xlabel("strategy or peer")
        ax.set_title(f"{title}, didScroll, width 64")
        ax.tick_params(axis="x", rotation=30)
        ax.legend(fontsize=7)
    fig.suptitle("Allocations and ARC traffic per message (counted in-process; runtime-internal ARC not seen)")
    footer(fig, rows)
    save(fig, out, "counters-width-64")


def slowdown_heatmap(rows, out):
    subset = [r for r in dense(rows) if r["message"] == "didScroll"]
    floor = {r["width"]: r["ns_per_delivery"] for r in subset if r["strategy"] == "floor"}
    widths = sorted(floor)
    names = [n for n in STRATEGIES + ["existentialFloor"] + PEERS if any(r["strategy"] == n for r in subset)]
    by_key = {(r["strategy"], r["width"]): r["ns_per_delivery"] for r in subset}
    grid = [[by_key.get((n, w), math.nan) / floor[w] for w in widths] for n in names]
    fig, ax = plt.subplots(figsize=(12, 0.6 * len(names) + 2))
    image = ax.imshow([[math.log10(v) if v == v else math.nan for v in line] for line in grid], aspect="auto", cmap="magma_r")
    for i, line in enumerate(grid):
        for j, v in enumerate(line):
            if v == v:
                ax.text(j, i, f"{v:.0f}×", ha="center", va="center", fontsize=7, color="white" if math.log10(v) > 2 else "black")
    ax.set_xticks(range(len(widths)), [str(w) for w in widths])
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("fan-out width (targets, all responding)")
    ax.set_ylabel("strategy or peer")
    ax.set_title("Slowdown vs the floor (ns per delivery ÷ floor's), didScroll")
    bar = fig.colorbar(image, ax=ax, label="log10(slowdown ×)")
    ax.plot([], [], " ", label="cell: median ns/delivery ÷ floor")
    ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
    footer(fig, rows)
    save(fig, out, "slowdown-heatmap")


def chain_vs_multiplexer(rows, out):
    chain = sorted((r["width"], r["ns_per_op_median"]) for r in rows if r["benchmark"] == "chain")
    if not chain:
        print("no chain rows: skipped chain-vs-multiplexer")
        return
    depths = [d for d, _ in chain]
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(*zip(*chain), label="delegate chain (depth)", **STYLE["delegateChain"])
    for name in STRATEGIES:
        points = sorted((r["width"], r["ns_per_op_median"]) for r in dense(rows)
                        if r["strategy"] == name and r["message"] == "didScroll" and r["width"] in depths)
        if points:
            ax.plot(*zip(*points), label=f"{name} (width)", **STYLE[name])
    log_axes(ax, "chain depth / multiplexer width (receivers)", "ns per message (median)",
             "Delegate chain vs one multiplexer, didScroll")
    footer(fig, rows)
    save(fig, out, "chain-vs-multiplexer")


def setup_cost(rows, out):
    setup = [r for r in rows if r["benchmark"] == "setup"]
    if not setup:
        print("no setup rows: skipped setup-cost")
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    for name in [s for s in STRATEGIES if s != "parameterPack"]:
        add = {r["width"]: r["ns_per_delivery"] for r in setup if r["strategy"] == name and r["message"] == "add"}
        both = {r["width"]: r["ns_per_delivery"] for r in setup if r["strategy"] == name and r["message"] == "addThenRemove"}
        widths = sorted(set(add) & set(both))
        if widths:
            axes[0].plot(widths, [add[w] for w in widths], label=name, **STYLE[name])
            axes[1].plot(widths, [max(both[w] - add[w], 0.01) for w in widths], label=name, **STYLE[name])
    for ax, title in zip(axes, ["add: ns per target (building N)", "remove: ns per target ((add+remove) − add)"]):
        log_axes(ax, "targets (N)", "ns per target (median)", title)
    fig.suptitle("Setup cost per target")
    footer(fig, rows)
    save(fig, out, "setup-cost")


def contention(rows, out):
    subset = [r for r in rows if r["benchmark"] == "contention"]
    if not subset:
        print("no contention rows: skipped contention")
        return
    labels = [r["message"] for r in subset]
    values = [float(r["deliveries_per_second"]) / 1e6 for r in subset]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    bars = ax.bar(labels, values, color=STYLE["concurrent"]["color"], label="concurrent, width 64")
    ax.bar_label(bars, labels=[f"{v:.0f}" for v in values], fontsize=8)
    ax.set_xlabel("dispatching threads (+ a thread adding and removing a target)")
    ax.set_ylabel("million deliveries per second (all threads)")
    ax.set_title("ConcurrentMultiplexer throughput under contention")
    ax.legend(fontsize=8)
    footer(fig, rows)
    save(fig, out, "contention")


def main(argv):
    path = argv[1] if len(argv) > 1 else "Results/results.csv"
    rows = load(path)
    out = os.path.join(os.path.dirname(os.path.abspath(path)), "plots")
    os.makedirs(out, exist_ok=True)
    delivery_vs_width(rows, out)
    counters_at_64(rows, out)
    slowdown_heatmap(rows, out)
    chain_vs_multiplexer(rows, out)
    setup_cost(rows, out)
    contention(rows, out)


if __name__ == "__main__":
    main(sys.argv)
