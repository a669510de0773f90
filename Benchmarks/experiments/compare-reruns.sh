#!/usr/bin/env bash
# Does scripts/compare stay quiet when nothing changed? Runs the suite N times (default 5) at the current commit,
# each a separate process, with --quick unless --full is given, and the gate's counts as many times; then compares
# every rerun with the first: times as ratios to the same run's existentialArray (--reference existentialArray), on
# their own and with the other reruns as the noise between processes (--reruns), and instructions per message.
# Prints scripts/compare's verdict line for each pair; the runs stay in a temporary folder, named at the end.
#   usage: Benchmarks/experiments/compare-reruns.sh [N] [--full]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
count=5 selection=(--quick)
for argument in "$@"; do
    case $argument in
        --full) selection=() ;;
        ''|*[!0-9]*) echo "usage: Benchmarks/experiments/compare-reruns.sh [N] [--full]" >&2; exit 2 ;;
        *) count=$argument ;;
    esac
done
[ "$count" -ge 2 ] || { echo "compare-reruns: N must be at least 2" >&2; exit 2; }
cd "$root"
swift build -c release --product bench >/dev/null
work=$(mktemp -d)
for i in $(seq 1 "$count"); do
    .build/release/bench "${selection[@]}" --no-progress --output "$work/run-$i.csv" >/dev/null 2>>"$work/bench.log"
    .build/release/bench check --no-progress --records "$work/records-$i.csv" --summary "$work/summary-$i.md" >/dev/null 2>>"$work/bench.log"
    echo "run $i of $count done" >&2
done
for i in $(seq 2 "$count"); do
    others=()
    for j in $(seq 2 "$count"); do [ "$j" = "$i" ] || others+=("$work/run-$j.csv"); done
    echo "rerun $i vs run 1, time ÷ existentialArray's:          $(scripts/compare "$work/run-1.csv" \
        "$work/run-$i.csv" --reference existentialArray | tail -1)"
    if [ ${#others[@]} -gt 0 ]; then
        echo "  the same, --reruns (the ${#others[@]} other reruns): $(scripts/compare "$work/run-1.csv" \
            "$work/run-$i.csv" --reference existentialArray --reruns "${others[@]}" | tail -1)"
    fi
    echo "  instructions:                                     $(scripts/compare "$work/records-1.csv" \
        "$work/records-$i.csv" | tail -1)"
done
echo "runs kept in $work" >&2
