#!/usr/bin/env bash
# Runs every command in the README's and the guides' checked blocks (```console checked,
# ```sh checked) and fails when one exits otherwise than documented; see scripts/doc_checks.py.
# Usage: scripts/doc-checks.sh [HEADROOM-BINARY]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
headroom=${1:-}
if [[ -z $headroom ]]; then
  source scripts/env.sh
  flock /tmp/headroom-build.lock swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
# The checker itself: a documented status that does not happen is a failure.
self=$(mktemp -d)
trap 'rm -rf "$self"' EXIT
printf '```console checked\n$ headroom estimate examples/no-such-session.json   # exit status 0\n```\n' \
  >"$self/wrong.md"
if python3 scripts/doc_checks.py "$headroom" "$self/wrong.md" >"$self/out"; then
  echo "doc-checks: a wrong exit status was not caught"
  exit 1
fi
grep -q "FAIL .*wrong.md:2: exit 2, expected 0" "$self/out"
python3 scripts/doc_checks.py "$headroom" README.md docs/*.md
