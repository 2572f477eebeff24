#!/usr/bin/env bash
# Our HOTA metrics against TrackEval (PyPI `trackeval`, the reference implementation) on the
# TUD-Campus and TUD-Stadtmitte ground truth and tracker output that ship inside PyPI's
# `motmetrics`, and on a synthetic scene; every figure must agree to 1e-3.
# Installs both into a virtualenv (default .build/hota-venv, or $HOTA_VENV) on first use, so
# the first run needs the network; without python3, its venv/pip or the network it says why on
# one line and exits 0 ("skipped"). Usage: scripts/hota-crosscheck.sh [HEADROOM-BINARY]
# (The virtualenv: scripts/trackeval-venv.sh.)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "hota-crosscheck: skipped: $*"
  exit 0
}
source scripts/trackeval-venv.sh
headroom=${1:-}
if [[ -z $headroom ]]; then
  source scripts/env.sh
  flock /tmp/headroom-build.lock swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$headroom" scene "$work/scene" --seconds 20 --seed 3 >/dev/null
pairs=()
for sequence in TUD-Campus TUD-Stadtmitte; do
  pairs+=("$data/$sequence/gt.txt" "$data/$sequence/test.txt")
done
pairs+=("$work/scene/gt.txt" "$work/scene/tracks.txt")
"$venv/bin/python" scripts/hota_crosscheck.py "$headroom" "${pairs[@]}"
