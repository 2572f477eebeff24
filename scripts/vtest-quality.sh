#!/usr/bin/env bash
# The main job on real video against published ground truth (issue 45): `headroom run` over
# OpenCV's vtest.avi (PETS 2009 S2L1) with the neural person detector and with HOG, on virtual
# time, scored by TrackEval against MOTChallenge's ground truth of the sequence. Fails when a
# detector's HOTA or IDF1 falls below Tests/Fixtures/quality/vtest-floors.json (the figures
# this check recorded, less 0.01). Quality only: no timings.
# Usage: scripts/vtest-quality.sh [HEADROOM-BINARY] [--record]   (--record rewrites the floors)
# Needs Debian's opencv-doc (the video) and the person model (scripts/person-model.sh), which
# scripts/setup.sh installs; the virtualenv: scripts/trackeval-venv.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "vtest-quality: skipped: $*"
  exit 0
}
source scripts/trackeval-venv.sh
source scripts/headroom-binary.sh
video=/usr/share/doc/opencv-doc/examples/data/vtest.avi
[[ -f $video ]] || { echo "vtest-quality: no $video: install Debian's opencv-doc (scripts/setup.sh does)"; exit 1; }
scripts/person-model.sh --find >/dev/null 2>&1 ||
  { echo "vtest-quality: the person model is not installed: run scripts/person-model.sh (scripts/setup.sh does)"; exit 1; }
gt=Tests/Fixtures/people/PETS09-S2L1-gt.txt
floors=Tests/Fixtures/quality/vtest-floors.json
if [[ " $* " == *" --record "* ]]; then
  "$venv/bin/python" scripts/vtest_quality.py "$headroom" "$video" "$gt" --record "$floors"
else
  "$venv/bin/python" scripts/vtest_quality.py "$headroom" "$video" "$gt" --floors "$floors"
fi
