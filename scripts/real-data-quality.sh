#!/usr/bin/env bash
# The tracker judged on real pedestrians (issue 24): TUD-Campus and TUD-Stadtmitte ground truth
# (the MOTChallenge files PyPI's motmetrics ships), seeded noisy detections at two levels,
# five seeds each, tracked by `headroom track` and scored by TrackEval (never by Headroom).
# Fails when a row's mean IDF1 or HOTA falls below Tests/Fixtures/quality/real-data-floors.json
# (the figures this check recorded, less 0.005). Quality only: no timings.
# Usage: scripts/real-data-quality.sh [HEADROOM-BINARY] [--record]   (--record rewrites the floors)
# The virtualenv: scripts/trackeval-venv.sh (skipped, saying why, without python3 or PyPI).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "real-data-quality: skipped: $*"
  exit 0
}
source scripts/trackeval-venv.sh
source scripts/headroom-binary.sh
floors=Tests/Fixtures/quality/real-data-floors.json
if [[ " $* " == *" --record "* ]]; then
  "$venv/bin/python" scripts/real_data_quality.py "$headroom" "$data" --record "$floors"
else
  "$venv/bin/python" scripts/real_data_quality.py "$headroom" "$data" --floors "$floors"
fi
