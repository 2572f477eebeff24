#!/usr/bin/env bash
# `headroom launch` end to end with the real binary: measure in fresh processes, history,
# compare (exit 1 on the regression of launching without deferred start, 0 on noise), report
# formats, usage errors; then crash safety: `launch measure` is killed with SIGKILL at random
# moments while it writes reports and runs, and every report left must be whole and the
# database intact. Usage: scripts/launch-checks.sh HEADROOM
set -euo pipefail
headroom=${1:?usage: scripts/launch-checks.sh PATH-TO-headroom}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

cat >"$work/session.json" <<'JSON'
{ "cameras": [ { "id": "back", "format": { "width": 640, "height": 480, "maxFrameRate": 30 } } ],
  "outputs": [ { "kind": "preview" },
               { "kind": "photo", "deferredStart": true },
               { "kind": "movie", "deferredStart": true } ] }
JSON
db="$work/history.sqlite3"

"$headroom" launch measure --session "$work/session.json" --runs 5 --db "$db" --json >/dev/null
"$headroom" launch measure --session "$work/session.json" --runs 5 --no-deferred --db "$db" \
  --out-dir "$work/reports" >/dev/null
"$headroom" launch history --db "$db" | grep -q "@firstPreviewFrame" || fail "history lacks marks"
status=0
"$headroom" launch compare deferred no-deferred --db "$db" >"$work/compare" || status=$?
[[ $status -eq 1 ]] || { fail "compare deferred no-deferred: exit $status, expected 1"; cat "$work/compare"; }
grep -q "@firstPreviewFrame .*regression" "$work/compare" || fail "compare did not flag the first frame"
"$headroom" launch compare 1-5 1-5 --db "$db" >/dev/null || fail "comparing runs with themselves flagged"
for format in json csv trace md html; do
  "$headroom" launch report no-deferred --format "$format" --db "$db" >"$work/report.$format" \
    || fail "report --format $format"
done
grep -q '"traceEvents"' "$work/report.trace" || fail "trace report lacks traceEvents"
"$headroom" launch report --from "$(ls "$work"/reports/*.json | head -1)" --format md >/dev/null \
  || fail "report --from a written report"

# expect-usage NEEDLE ARGS...: exit 2, nothing on stdout, NEEDLE on stderr.
expect_usage() {
  local needle=$1 status=0
  shift
  "$headroom" "$@" >"$work/out" 2>"$work/err" || status=$?
  [[ $status -eq 2 ]] || fail "headroom $*: exit $status, expected 2"
  [[ ! -s "$work/out" ]] || fail "headroom $*: printed on stdout on error"
  grep -qF -- "$needle" "$work/err" || { fail "headroom $*: stderr lacks \"$needle\""; cat "$work/err"; }
}
echo '{ "version": 1, "label": "x", "startedAt": 0, "origin": "processStart", "phases": [], "marks": [ { "name": "a", "time": -2 } ] }' >"$work/bad.json"
expect_usage "bad.json: marks[0].time: expected seconds at least 0" launch report --from "$work/bad.json"
expect_usage "expected a subcommand" launch frobnicate
expect_usage "--format: expected one of" launch report --format pdf --db "$db"
expect_usage "expected two run selections" launch compare deferred --db "$db"
expect_usage "run selector \"9-3\"" launch compare 9-3 1 --db "$db"
expect_usage "--runs does not apply to \`launch report\`" launch report --runs 3 --db "$db"
expect_usage "nope.json: no such file" launch measure --session "$work/nope.json" --db "$db"

# Crash safety: kill the measuring process mid-write, five times.
crash_db="$work/crash.sqlite3"
for round in 1 2 3 4 5; do
  "$headroom" launch measure --session "$work/session.json" --runs 1000 --db "$crash_db" \
    --out-dir "$work/crash" --json >/dev/null 2>&1 &
  pid=$!
  sleep "$((RANDOM % 3 + 1)).$((RANDOM % 10))"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  for report in "$work"/crash/*.json; do
    [[ -e $report ]] || continue
    "$headroom" launch report --from "$report" >/dev/null 2>&1 || fail "round $round: partial report $report"
  done
  "$headroom" launch history --check --db "$crash_db" >/dev/null || fail "round $round: database damaged"
done
runs=$("$headroom" launch history --runs 100000 --json --db "$crash_db" | grep -o '"runs" : [0-9]*' | grep -o '[0-9]*$')
reports=$(find "$work/crash" -name 'run-*.json' | wc -l)
echo "launch-checks: $runs runs and $reports reports survived 5 SIGKILLs intact"
[[ $runs -gt 0 ]] || fail "no run was stored before the kills; the crash check proved nothing"

if ((failures > 0)); then
  echo "launch-checks: $failures failure(s)"
  exit 1
fi
echo "launch-checks: all passed"
