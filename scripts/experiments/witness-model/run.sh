#!/bin/bash
# bash scripts/experiments/witness-model/run.sh [processes] [variants...]   (see README.txt)
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
n=${1:-6}; shift || true
variants=${*:--1 0 1 3 17 18}
gcc -O2 -o /tmp/witness-model "$dir/driver.c" "$dir/witness.S"
for i in $(seq "$n"); do for v in $variants; do echo "$v $(/tmp/witness-model "$v")"; done; done \
    | sort -k1,1n -k2n | awk '{a[$1]=a[$1]" "$2} END {for (k in a) print k":"a[k]}' | sort -n
