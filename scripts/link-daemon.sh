#!/usr/bin/env bash
# Links headroomd, the resident daemon, with the Swift runtime in it, from the objects of the
# release build (run `swift build -c release --product headroomd` first), into OUT: what the
# package installs and scripts/bench-metrics.sh measures.
#
# A link, nothing recompiled (SwiftPM's --static-swift-stdlib would rebuild every module): a
# shared runtime costs a process its dynamic symbol tables and relocations at rest, 13.5 →
# 11.2 MB resident (docs/benchmarks.md). The binary exports no symbols (the runtime's
# executor hooks are linked, not looked up: Sources/CConcurrencyHooks) and stays a PIE with its
# relative relocations packed (lld's DT_RELR, glibc ≥ 2.36). `main=headroomd_main`: SwiftPM
# names an executable's entry point after its module.
#
# Usage: scripts/link-daemon.sh OUT
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
out=${1:?usage: scripts/link-daemon.sh OUT}
objects=$(swift build -c release --show-bin-path)/headroomd.product/Objects.LinkFileList
if [[ ! -f $objects ]]; then
  echo "link-daemon.sh: $objects is missing: build the release headroomd first (or SwiftPM lists an executable's objects elsewhere now)" >&2
  exit 1
fi
swiftc -static-stdlib -use-ld=lld @"$objects" -o "$out" \
  -Xlinker --defsym -Xlinker main=headroomd_main -Xlinker --gc-sections \
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
