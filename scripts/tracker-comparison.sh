#!/usr/bin/env bash
# Dev benchmark, not part of scripts/test.sh: the same detections through headroom's tracker,
# norfair and motpy (PyPI), with speeds (tracking only, one thread) and IDF1/MOTA. Installs
# norfair and motpy into a virtualenv (.build/tracker-venv or $TRACKER_VENV) on first use.
# Usage: scripts/tracker-comparison.sh   (builds headroom in release mode)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
venv=${TRACKER_VENV:-.build/tracker-venv}
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import norfair, motpy' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet norfair motpy
fi
swift build -c release --product headroom >/dev/null
headroom="$(swift build -c release --show-bin-path)/headroom"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scene"
"$headroom" scene "$work/scene" --fixed --seconds 30 --people 6 --seed 1 >/dev/null
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
  "$venv/bin/python" scripts/tracker_comparison.py "$headroom" "$work" "$work/scene"
