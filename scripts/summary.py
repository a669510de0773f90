#!/usr/bin/env python3
"""Print a sanity table (ns per delivery per message, counters) from a results CSV.

usage: scripts/summary.py [Results/results.csv] [--width 64]
One Markdown row per strategy: ns per delivery at the given width (all targets
responding) for each message, mallocs and retains/releases per message.
"""
import csv
import sys


def lines(path, width="64"):
    """The table as Markdown lines (also drawn into the HTML report by scripts/report.py)."""
    out = []
    print = out.append  # noqa: A001 - the printer's lines, collected
    with open(path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle)
                if r["benchmark"] == "dispatch" and r["width"] == width and r["responders"] == width]
    messages = list(dict.fromkeys(r["message"] for r in rows))
    strategies = list(dict.fromkeys(r["strategy"] for r in rows))
    by_key = {(r["strategy"], r["message"]): r for r in rows}
    floor = {m: float(by_key[("floor", m)]["ns_per_delivery"]) for m in messages if ("floor", m) in by_key}
    print(f"| strategy (width {width}) | " + " | ".join(f"{m} ns/delivery" for m in messages)
          + " | mallocs/msg | retains/msg | releases/msg |")
    print("|---" * (len(messages) + 4) + "|")
    for strategy in strategies:
        cells = []
        for m in messages:
            row = by_key.get((strategy, m))
            if row is None:
                cells.append("–")
                continue
            ns = float(row["ns_per_delivery"])
            ratio = f" ({ns / floor[m]:.0f}×)" if m in floor and strategy != "floor" else ""
            cells.append(f"{ns:.2f}{ratio}")
        first = by_key.get((strategy, "didScroll"), {})
        counts = [first.get(k, "") or "–" for k in ("mallocs_per_op", "retains_per_op", "releases_per_op")]
        print(f"| `{strategy}` | " + " | ".join(cells) + " | " + " | ".join(counts) + " |")
    with open(path, newline="") as handle:
        memory = [r for r in csv.DictReader(handle) if r["benchmark"] == "memory"]
    if memory:
        print("\n| strategy | heap bytes per registered target | ns per `add` |")
        print("|---|---|---|")
        for r in memory:
            print(f"| `{r['strategy']}` | {float(r['heap_bytes_per_unit']):.0f} | {float(r['ns_per_delivery']):.0f} |")
    commit = rows[0]["commit"] if rows else "?"
    print(f"\n(ratios to the floor in parentheses; counters for didScroll; commit {commit})")
    return "\n".join(out).split("\n")


def main(argv):
    path = next((a for a in argv[1:] if a.endswith(".csv")), "Results/results.csv")
    width = argv[argv.index("--width") + 1] if "--width" in argv else "64"
    print("\n".join(lines(path, width)))


if __name__ == "__main__":
    main(sys.argv)
