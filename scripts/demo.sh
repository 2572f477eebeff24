#!/usr/bin/env bash
# The main job: setup, release build, then Headroom on the example sessions.
# Until `headroom run` exists, the demo prices the example sessions and plans the one that does not fit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
source scripts/env.sh
swift build -c release --product headroom 2>&1 | tail -n 3
headroom="$(swift build -c release --show-bin-path)/headroom"

for session in examples/sessions/*.json; do
  echo "== headroom estimate $session"
  "$headroom" estimate "$session" || true
  echo
done
echo "== headroom plan examples/sessions/dual-4k60.json"
"$headroom" plan examples/sessions/dual-4k60.json
