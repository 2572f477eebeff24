#!/usr/bin/env bash
# Dev check, not part of scripts/test.sh: our MOT metrics against py-motmetrics (PyPI
# `motmetrics`) on generated sequences; every metric must agree to 1e-3.
# Installs motmetrics into a virtualenv (default .build/motmetrics-venv, or $MOT_VENV) on first
# use, so the first run needs the network. Usage: scripts/mot-crosscheck.sh [HEADROOM-BINARY]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
venv=${MOT_VENV:-.build/motmetrics-venv}
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import motmetrics' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet motmetrics
fi
headroom=${1:-}
if [[ -z $headroom ]]; then
  swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pairs=()
# Closed-loop and still-camera sequences, several seeds, strides and scales, so that switches,
# misses, false positives and partial tracks all occur.
for setting in "1 1 0.5" "2 3 0.5" "3 5 0.25" "4 2 0.34" "5 1 1"; do
  read -r seed stride scale <<<"$setting"
  dir="$work/seed$seed"
  mkdir -p "$dir"
  "$headroom" scene "$dir" --seconds 15 --seed "$seed" --stride "$stride" --scale "$scale" \
    --people 8 >/dev/null
  "$headroom" track "$dir/det.txt" --stride "$stride" --out "$dir/offline.txt" >/dev/null
  pairs+=("$dir/gt.txt" "$dir/tracks.txt" "$dir/gt.txt" "$dir/offline.txt")
done
mkdir -p "$work/fixed"
"$headroom" scene "$work/fixed" --fixed --seconds 15 --seed 9 --people 10 >/dev/null
pairs+=("$work/fixed/gt.txt" "$work/fixed/tracks.txt")
"$venv/bin/python" scripts/mot_crosscheck.py "$headroom" "${pairs[@]}"
