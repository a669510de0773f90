#!/usr/bin/env bash
# What do the bound forms (Message.withBoundCall) buy the closure strategies?
#
# Copies HEAD, deletes the `.withBoundCall { … }` line of every ScrollViewSchema descriptor, so that
# closureTable and selectorDictionary store closures that call the descriptor's body (the one-line glue), then
# counts instructions with the gate against the committed baseline and times existentialArray, closureTable and
# selectorDictionary in one run. Compare the ratios with the same run on HEAD:
#   swift run -c release bench --strategies existentialArray,closureTable,selectorDictionary --widths 16,64,256 \
#       --output /tmp/head.csv && scripts/experiments/ratios.py /tmp/head.csv
#
# usage: scripts/experiments/without-bound-calls.sh   (about a minute after a cold build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$root" archive HEAD | tar -x -C "$work"
schema="$work/Sources/Fanout/ScrollView/ScrollViewSchema.swift"
sed -i '/\.withBoundCall { target in/d' "$schema"
if grep -q "\.withBoundCall {" "$schema"; then
    echo "without-bound-calls: could not remove every bound form from $schema" >&2
    exit 1
fi
cd "$work"
swift build -c release --product bench 2>&1 | tail -1

echo "== instructions per message without the bound forms, against the committed baseline"
.build/release/bench check --baseline "$root/Results/baseline.csv" --no-progress 2>/dev/null \
    | grep -E '^dispatch/(closureTable|selectorDictionary|existentialArray)/[A-Za-z]+/(16/16|256/256) +instructions' \
    || true

echo "== time per message as a ratio to existentialArray, one run, without the bound forms"
.build/release/bench --strategies existentialArray,closureTable,selectorDictionary --widths 16,64,256 \
    --no-progress --output "$work/without-bound-calls.csv" > /dev/null 2>&1
python3 "$root/scripts/experiments/ratios.py" "$work/without-bound-calls.csv"
