#!/usr/bin/env python3
"""Issue 14's forwarding goals, checked in time against a results CSV (the gate's instruction counts are checked by
BaselineClaimsTests): per delivery, `forward` at most 3x the typed `selectorDictionary` dispatch at widths >= 64 and
at most 4x at width 16, where at 16 everything `forward` does per message counts, divided by 16, and only the
arguments array the caller builds (the `forward/argumentsArray` row) is left out; and `forward` at least 5x faster
per delivery than the Objective-C `forwardInvocation:` peer at every width. Every target responds.

usage: Benchmarks/experiments/forward-goals.py [Results/results.csv] [--column ns_per_op_median]
Prints one line per message and width, and exits 1 when a goal is missed.
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/lib")
import results_csv  # noqa: E402


def main(argv):
    arguments = argv[1:]
    column = "ns_per_op_median"
    if "--column" in arguments:
        index = arguments.index("--column")
        if index + 1 >= len(arguments):
            print(__doc__, file=sys.stderr)
            results_csv.fail("--column needs a value")
        column = arguments[index + 1]
        del arguments[index:index + 2]
    path = arguments[0] if arguments else "Results/results.csv"
    try:
        _, rows = results_csv.read(path)
    except results_csv.Malformed as error:
        results_csv.fail(str(error))
    table = {results_csv.case(row): float(row[column]) for row in rows}
    misses = checked = 0
    for message in ("didScroll", "didEndDragging", "shouldScrollToTop", "viewForZooming"):
        arguments_ns = table.get(f"forward/argumentsArray/{message}/1/1")
        for width in (1, 4, 16, 64, 256, 1024):
            forward = table.get(f"forward/selectorDictionary/{message}/{width}/{width}")
            typed = table.get(f"dispatch/selectorDictionary/{message}/{width}/{width}")
            objc = table.get(f"dispatch/objcForwardInvocation/{message}/{width}/{width}")
            if forward is None or typed is None:
                continue
            line = f"{message:18s} {width:5d}: forward {forward / width:8.2f} ns/delivery, typed {typed / width:7.2f}"
            goal = 3 if width >= 64 else 4 if width == 16 else None
            if goal:
                own = forward - (arguments_ns or 0) if width == 16 else forward
                ratio = own / typed
                ok = ratio <= goal
                line += f", {ratio:4.2f}x typed{' without the arguments array' if width == 16 else ''} (goal <= {goal}x) {'ok' if ok else 'MISSED'}"
                checked += 1
                misses += not ok
            if objc is not None:
                speedup = objc / forward
                ok = speedup >= 5
                line += f"; {speedup:5.1f}x faster than forwardInvocation: {'ok' if ok else 'MISSED'}"
                checked += 1
                misses += not ok
            print(line)
    print(f"{checked} goals checked in {path} ({column}), {misses} missed")
    return 1 if misses or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
