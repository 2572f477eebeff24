#!/usr/bin/env bash
# Dev comparison, not part of scripts/test.sh: the real-data check's detections (TUD-Campus and
# TUD-Stadtmitte with the seeded noise of scripts/real_data_quality.py) through headroom track,
# norfair, motpy, ByteTrack (PyPI bytetracker) and OC-SORT (PyPI ocsort), each at its defaults,
# all scored by TrackEval. Makes a virtualenv (.build/peers-venv or $PEERS_VENV) on first use;
# bytetracker and ocsort are installed without their declared torch (they only call .numpy()
# on their input). Usage: scripts/real-data-peers.sh [HEADROOM-BINARY]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "real-data-peers: skipped: $*"
  exit 0
}
source scripts/trackeval-venv.sh
peers=${PEERS_VENV:-.build/peers-venv}
if [[ ! -x "$peers/bin/python" ]] ||
  ! "$peers/bin/python" -c 'import norfair, motpy, ocsort, trackeval' 2>/dev/null; then
  python3 -m venv "$peers"
  "$peers/bin/pip" install --quiet norfair motpy filterpy lap numpy scipy
  "$peers/bin/pip" install --quiet --no-deps trackeval==1.3.0 ocsort==0.0.2 bytetracker==0.3.2
fi
headroom=${1:-}
if [[ -z $headroom ]]; then
  source scripts/env.sh
  swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
"$peers/bin/python" scripts/real_data_peers.py "$headroom" "$data"
