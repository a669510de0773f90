#!/usr/bin/env bash
# Proof by injection that the regression gate catches regressions.
#
# Copies the committed package to a temporary folder and runs `bench check` against the committed baseline three
# times: unchanged (must exit 0), with one heap allocation added to every existentialArray dispatch (must exit 1,
# naming existentialArray cases and mallocs_per_op), and with ~5 % more work per message in existentialArray at width 1
# (must exit 1, naming instructions_per_op). Exits non-zero if any expectation fails.
#   usage: scripts/prove-gate.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git -C "$root" archive HEAD | tar -x -C "$work"
cd "$work"
file=Sources/Fanout/Strategies/ExistentialArrayMultiplexer.swift
cp "$file" "$work/original.swift"
failures=0

check() { # expected-status label pattern...
    local expected=$1 label=$2
    shift 2
    echo "== $label: building"
    swift build -c release >/dev/null
    set +e
    .build/release/bench check --no-progress >"$work/$label.txt" 2>&1
    local status=$?
    set -e
    echo "   bench check exited $status (expected $expected)"
    [ "$status" -eq "$expected" ] || failures=$((failures + 1))
    for pattern in "$@"; do
        if grep -q -- "$pattern" "$work/$label.txt"; then
            echo "   report names: $(grep -m1 -- "$pattern" "$work/$label.txt")"
        else
            echo "   MISSING from the report: $pattern"
            failures=$((failures + 1))
        fi
    done
    grep -E "^gate:" "$work/$label.txt" | sed 's/^/   /'
}

inject() { # python-replacement-pairs...
    cp "$work/original.swift" "$file"
    python3 - "$file" "$@" <<'PY'
import sys
path, pairs = sys.argv[1], sys.argv[2:]
text = open(path).read()
for old, new in zip(pairs[::2], pairs[1::2]):
    assert old in text, old
    text = text.replace(old, new, 1)
open(path, "w").write(text)
PY
}

check 0 unchanged "gate: PASS"

# One heap allocation per dispatch: a new object stored on every message.
inject \
    '    internal var registrations = IdentifiedList' \
    '    internal var registrations = IdentifiedList' \
    '    /// Creates a multiplexer with no targets.' \
    '    @usableFromInline final class Injected { @usableFromInline init() {} }
    @usableFromInline internal var injected: Injected?

    /// Creates a multiplexer with no targets.' \
    '        StrongRegistration.deliver(message, arguments, to: registrations.entries, while: shouldContinue)' \
    '        injected = Injected()
        StrongRegistration.deliver(message, arguments, to: registrations.entries, while: shouldContinue)'
check 1 allocation "REGRESSION dispatch/existentialArray/didScroll/256/256 mallocs_per_op" "gate: FAIL"

# About 5 % more work per message at width 1: two more stored-property updates per dispatch (~6 instructions
# on ~114), unchecked so that no exclusivity check adds more.
inject \
    '    /// Creates a multiplexer with no targets.' \
    '    @exclusivity(unchecked) @usableFromInline internal var injectedWork = 0
    @exclusivity(unchecked) @usableFromInline internal var injectedMore = 0

    /// Creates a multiplexer with no targets.' \
    '        StrongRegistration.deliver(message, arguments, to: registrations.entries, while: shouldContinue)' \
    '        injectedWork &+= registrations.entries.count
        injectedMore = injectedWork &* 3
        StrongRegistration.deliver(message, arguments, to: registrations.entries, while: shouldContinue)'
check 1 work "REGRESSION dispatch/existentialArray/didScroll/1/1 instructions_per_op" "gate: FAIL"

cp "$work/original.swift" "$file"
if [ "$failures" -eq 0 ]; then echo "prove-gate: all three expectations held"; else echo "prove-gate: $failures expectations failed"; fi
exit "$failures"
