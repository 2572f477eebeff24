#!/usr/bin/env bash
# Renders the sample HTML run report (the one HTMLRunReportTests draws) and screenshots it
# with headless Chromium: out/sample-report.html and out/sample-report.png.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
command -v chromium >/dev/null || { echo "render-report-sample: needs chromium (apt-get install chromium)" >&2; exit 2; }
mkdir -p out
HEADROOM_SAMPLE_REPORT="$PWD/out/sample-report.html" \
  swift test --filter 'HTMLRunReportTests/writesTheFileAtomically' 2>&1 | tail -n 1
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=960,1700 \
  --screenshot="$PWD/out/sample-report.png" "file://$PWD/out/sample-report.html" 2>/dev/null
echo "out/sample-report.html, out/sample-report.png"
