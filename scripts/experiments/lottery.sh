#!/bin/bash
# How often a build's width-1 and width-2 dispatch stays within #25's bounds, run after run (Findings 47).
# Each run is its own process, so ASLR places the code anew, and a run's ratios move with where its hot branches land:
# the same binary gives 1.40 one run and 1.55 the next, and two builds of almost the same source differ more than that.
# So compare builds by this count, in interleaved runs, not by one run each.
#
#   bash scripts/experiments/lottery.sh RUNS BENCH_BINARY... ; python3 scripts/experiments/lottery.py BENCH_BINARY...
#
# Writes /tmp/lottery-<binary name>-<i>.csv: dispatch of the four messages at widths 1 and 2 for existentialArray,
# lifetimeBoundToOwner, closureTable and the C floor (24 samples of 6 rounds: about 3.5 s per run).
set -euo pipefail
runs=$1; shift
for i in $(seq "$runs"); do
    for binary in "$@"; do
        "$binary" --no-progress --filter '^dispatch/(existentialArray|lifetimeBoundToOwner|closureTable|cFunctionPointer)/' \
            --widths 1,2 --samples 24 --rounds 6 --output "/tmp/lottery-$(basename "$binary")-$i.csv" >/dev/null 2>&1
    done
done
