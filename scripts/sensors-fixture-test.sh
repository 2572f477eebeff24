#!/usr/bin/env bash
# Real libsensors against fake hwmon trees: inside a private mount namespace, a tmpfs replaces
# /sys/class, the Swift suite LibsensorsFixtureTests builds chips there and heats them, then
# the CLI is checked against the same kind of tree. Needs root and `unshare --mount`.
# Usage: scripts/sensors-fixture-test.sh [PATH/TO/headroom]   (after a debug build with tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh

if [[ $(id -u) -ne 0 ]] || ! unshare --mount --propagation private true 2>/dev/null; then
  echo "sensors-fixture-test: SKIPPED: needs root and unshare --mount (fake hwmon trees)" >&2
  exit 0
fi
headroom=${1:-$(swift build --show-bin-path)/headroom}

unshare --mount --propagation private bash -euo pipefail -c '
  mount -t tmpfs headroom-fake-hwmon /sys/class
  log=$(mktemp)
  trap "rm -f $log" EXIT
  HEADROOM_FAKE_HWMON=1 swift test --skip-build --filter LibsensorsFixtureTests 2>&1 | tee "$log" \
    | grep -E "✘|Suite LibsensorsFixtureTests|Test run" || true
  # The suite must have run (not been skipped or filtered away) and passed.
  grep -q "Suite LibsensorsFixtureTests passed" "$log"
  ! grep -q "✘" "$log"
  if [[ -x "$1" ]] && [[ -f scripts/sensors-cli-fixture.sh ]]; then
    scripts/sensors-cli-fixture.sh "$1"
  fi
' sensors-fixture "$headroom"
echo "sensors-fixture-test: passed"
