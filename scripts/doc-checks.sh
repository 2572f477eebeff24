#!/usr/bin/env bash
# Runs every command in the README's and the guides' checked blocks (```console checked,
# ```sh checked) and fails when one exits otherwise than documented or prints otherwise than
# its block shows; see scripts/doc_checks.py.
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
# ... and so is a figure: the README's first checked block (the estimate), one digit changed.
python3 - "$self/figure.md" <<'PYTHON'
import re, sys
readme = open("README.md", encoding="utf-8").read()
block = re.search(r"^```console checked\n.*?^```\n", readme, re.S | re.M).group(0)
assert "3234.82 Mpx/s" in block, "the README's first checked block no longer shows 3234.82 Mpx/s"
open(sys.argv[1], "w", encoding="utf-8").write(block.replace("3234.82 Mpx/s", "3234.83 Mpx/s"))
PYTHON
if python3 scripts/doc_checks.py "$headroom" "$self/figure.md" >"$self/out"; then
  echo "doc-checks: a changed figure in the README was not caught"
  exit 1
fi
grep -q "FAIL .*figure.md:2: the output differs.*3234.83 Mpx/s" "$self/out"
# docs/architecture.md's module table is Package.swift's, and its checker catches a change.
python3 scripts/architecture_check.py --self-test
python3 scripts/architecture_check.py
# No module reads a clock it was not given (scripts/clock_check.py lists where one may).
python3 scripts/clock_check.py --self-test
python3 scripts/clock_check.py
# No library reads the environment (scripts/environment_check.py lists where one may).
python3 scripts/environment_check.py --self-test
python3 scripts/environment_check.py
python3 scripts/doc_checks.py "$headroom" README.md docs/*.md
