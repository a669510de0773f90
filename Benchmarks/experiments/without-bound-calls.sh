#!/usr/bin/env bash
# What do the bound forms (Message.withBoundCall) buy?
#
# Copies HEAD, deletes the `.withBoundCall { … }` line of every ScrollViewSchema descriptor, so that
# selectorDictionary binds closures that call the descriptor's body (the one-line glue), then counts instructions
# with the gate against the committed baseline (which has the bound forms) and times existentialArray, closureTable
# and selectorDictionary in one run. Since Findings 43 a typed send calls every target through the descriptor, so
# only the gate's `forward` cases should move (before, closureTable's and selectorDictionary's dispatch did too).
# Compare the ratios with the committed run:
#   Benchmarks/experiments/ratios.py Results/results.csv --min-width 16
#
# usage: Benchmarks/experiments/without-bound-calls.sh   (about a minute after a cold build; needs valgrind for
#        the instruction counts)
set -euo pipefail
usage="usage: Benchmarks/experiments/without-bound-calls.sh (no arguments)"
if [ $# -gt 0 ]; then
    if [ "$1" = "-h" ] || [ "$1" = "--help" ]; then echo "$usage"; exit 0; fi
    echo "without-bound-calls: unexpected argument '$1'" >&2
    echo "$usage" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$root" archive HEAD | tar -x -C "$work"
schema="$work/Sources/ScrollViewKit/ScrollViewSchema.swift"
grep -v '\.withBoundCall { target in' "$schema" > "$schema.new" && mv "$schema.new" "$schema"
if grep -q '\.withBoundCall {' "$schema"; then
    echo "without-bound-calls: could not remove every bound form from $schema" >&2
    exit 1
fi
cd "$work"
if ! swift build -c release --product bench > "$work/build.log" 2>&1; then
    tail -20 "$work/build.log" >&2
    echo "without-bound-calls: the build failed" >&2
    exit 1
fi

echo "== instructions per message without the bound forms, against the committed baseline"
.build/release/bench check --baseline "$root/$(.build/release/bench platform | cut -d' ' -f2)" --no-progress > "$work/check.txt" 2>&1 || true
pattern='^dispatch/(closureTable|selectorDictionary|existentialArray)/[A-Za-z]+/(16/16|256/256) +instructions'
if ! grep -E "$pattern" "$work/check.txt"; then
    tail -20 "$work/check.txt" >&2
    echo "without-bound-calls: the gate counted no instructions (is valgrind installed?)" >&2
    exit 1
fi

echo "== time per message as a ratio to existentialArray, one run, without the bound forms"
if ! .build/release/bench --strategies existentialArray,closureTable,selectorDictionary --widths 16,64,256 \
        --no-progress --output "$work/without-bound-calls.csv" > "$work/run.log" 2>&1; then
    tail -20 "$work/run.log" >&2
    echo "without-bound-calls: the timed run failed" >&2
    exit 1
fi
python3 "$root/Benchmarks/experiments/ratios.py" "$work/without-bound-calls.csv" --min-width 16
