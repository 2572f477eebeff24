#!/usr/bin/env bash
# The pressure benchmarks need a fake hwmon tree: runs headroom-bench (release) inside a private
# mount namespace whose /sys/class is a tmpfs. Needs root. Usage: scripts/bench-pressure.sh [ARGS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
swift build -c release --product headroom-bench 2>&1 | tail -n 3
bench=$(swift build -c release --show-bin-path)/headroom-bench
unshare --mount --propagation private bash -euo pipefail -c '
  mount -t tmpfs headroom-bench-hwmon /sys/class
  "$0" "$@"
' "$bench" "${@:-pressure.}"
