#!/usr/bin/env bash
# Builds the Objective-C forwarding proxy with gcc's Objective-C and GNUstep Base.
#   usage: Benchmarks/objc/build.sh <output-path>
# Exits 3, saying how to install them, when the toolchain is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
output="${1:?usage: build.sh <output-path>}"
if ! command -v gnustep-config >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1 \
    || ! echo '@interface X @end' | gcc -x objective-c -fsyntax-only - >/dev/null 2>&1; then
    echo "the Objective-C peer needs gcc's Objective-C and GNUstep Base: apt-get install gobjc libgnustep-base-dev" >&2
    exit 3
fi
mkdir -p "$(dirname "$output")"
# shellcheck disable=SC2046
gcc -O2 -std=gnu11 $(gnustep-config --objc-flags) -w -o "$output.tmp" "$here/ForwardingProxy.m" $(gnustep-config --base-libs) -lm
mv "$output.tmp" "$output"
