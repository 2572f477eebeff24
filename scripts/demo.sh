#!/usr/bin/env bash
# The main job: setup, release build, then `headroom run` — the tracking pipeline on the
# synthetic scene with the simulated stand, a room that heats up, and the governor adapting.
# Leaves its reports (run.json, run.md, run.html, launch.trace.json, launch.md) in runs/demo.
# Extra arguments go to `headroom run` (e.g. `--compare`, `--seconds 30`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
source scripts/env.sh
echo "demo: building headroom (release)…" >&2
swift build -c release --product headroom 2>&1 | tail -n 1 >&2
headroom="$(swift build -c release --show-bin-path)/headroom"

"$headroom" estimate examples/sessions/dual-4k60.json || true
echo
"$headroom" run --scenario thermal-ramp --out runs/demo "$@"
