#!/usr/bin/env bash
# Our HOTA metrics against TrackEval (PyPI `trackeval`, the reference implementation) on the
# TUD-Campus and TUD-Stadtmitte ground truth and tracker output that ship inside PyPI's
# `motmetrics`, and on a synthetic scene; every figure must agree to 1e-3.
# Installs both into a virtualenv (default .build/hota-venv, or $HOTA_VENV) on first use, so
# the first run needs the network; without python3, its venv/pip or the network it says why on
# one line and exits 0 ("skipped"). Usage: scripts/hota-crosscheck.sh [HEADROOM-BINARY]
#
# trackeval 1.3.0 (a maintained fork of JonathonLuiten/TrackEval; its HOTA and MOTChallenge code
# differ from upstream only in spelling np.float/np.int as float/int, which numpy ≥ 1.24 needs)
# declares opencv-python, matplotlib, pycocotools and tabulate as requirements (hundreds of MB)
# that only its plotting, segmentation and baseline code imports. It is installed with
# --no-deps next to the numpy and scipy that HOTA and the MOTChallenge loader use; motmetrics
# too (only its data files are read, so pandas is not needed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "hota-crosscheck: skipped: $*"
  exit 0
}
command -v python3 >/dev/null 2>&1 || skip "no python3 on PATH"
venv=${HOTA_VENV:-.build/hota-venv}
# motmetrics' folder, found without importing it (its dependencies are not installed).
find_data='import importlib.util; print(importlib.util.find_spec("motmetrics").submodule_search_locations[0])'
if [[ ! -x "$venv/bin/python" ]] ||
  ! "$venv/bin/python" -c "import trackeval; $find_data" >/dev/null 2>&1; then
  mkdir -p "$(dirname "$venv")"
  log=$(mktemp)
  python3 -m venv "$venv" >"$log" 2>&1 || skip "python3 -m venv failed: $(tail -n 1 "$log") (log: $log)"
  pip=("$venv/bin/pip" install --quiet --retries 1 --timeout 20)
  { "${pip[@]}" --no-deps trackeval==1.3.0 motmetrics==1.4.0 && "${pip[@]}" numpy scipy; } \
    >"$log" 2>&1 ||
    skip "pip could not install trackeval and motmetrics (no network?): $(tail -n 1 "$log") (log: $log)"
  rm -f "$log"
fi
headroom=${1:-}
if [[ -z $headroom ]]; then
  source scripts/env.sh
  flock /tmp/headroom-build.lock swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
data=$("$venv/bin/python" -c "$find_data")/data
[[ -f $data/TUD-Campus/gt.txt && -f $data/TUD-Stadtmitte/test.txt ]] ||
  { echo "hota-crosscheck: motmetrics ships no TUD-Campus/TUD-Stadtmitte files in $data"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$headroom" scene "$work/scene" --seconds 20 --seed 3 >/dev/null
pairs=()
for sequence in TUD-Campus TUD-Stadtmitte; do
  pairs+=("$data/$sequence/gt.txt" "$data/$sequence/test.txt")
done
pairs+=("$work/scene/gt.txt" "$work/scene/tracks.txt")
"$venv/bin/python" scripts/hota_crosscheck.py "$headroom" "${pairs[@]}"
