#!/usr/bin/env bash
# Builds the Objective-C forwarding proxy, a shared library, with gcc's Objective-C and GNUstep Base; does
# nothing when the library is newer than its source and this script.
#   usage: Benchmarks/objc/build.sh <output-path.so>
# Exits 3, saying how to install them, when the toolchain is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
output="${1:?usage: build.sh <output-path>}"
if ! command -v gnustep-config >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1 \
    || ! echo '@interface X @end' | gcc -x objective-c -fsyntax-only - >/dev/null 2>&1; then
    echo "the Objective-C peer needs gcc's Objective-C and GNUstep Base: apt-get install gobjc libgnustep-base-dev" >&2
    exit 3
fi
if [ "$output" -nt "$here/ForwardingProxy.m" ] && [ "$output" -nt "$0" ]; then
    exit 0
fi
mkdir -p "$(dirname "$output")"
# shellcheck disable=SC2046
gcc -O2 -std=gnu11 -shared -fPIC $(gnustep-config --objc-flags) -w -o "$output.tmp" "$here/ForwardingProxy.m" \
    $(gnustep-config --base-libs)
mv "$output.tmp" "$output"
