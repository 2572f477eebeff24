#!/usr/bin/env bash
# `headroom launch` end to end with the real binary: measure in fresh processes, history,
# compare (exit 1 on the regression of launching without deferred start, 0 on noise), report
# formats, usage errors; then crash safety: processes writing runs to the history and report
# files are killed with SIGKILL at random moments, and every report left must be whole and the
# database intact. Usage: scripts/launch-checks.sh HEADROOM
set -euo pipefail
headroom=${1:?usage: scripts/launch-checks.sh PATH-TO-headroom}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# 4K, so the work deferred start moves (≈ 300 ms of pools and warm-ups) dwarfs the noise of
# starting a process on a busy machine (tens of ms); at 640×480 it was ≈ 10 ms, and a loaded CI
# machine once hid it.
cat >"$work/session.json" <<'JSON'
{ "cameras": [ { "id": "back", "format": { "width": 3840, "height": 2160, "maxFrameRate": 30 } } ],
  "outputs": [ { "kind": "preview" },
               { "kind": "photo", "deferredStart": true },
               { "kind": "movie", "deferredStart": true } ] }
JSON
db="$work/history.sqlite3"

"$headroom" launch measure --session "$work/session.json" --runs 5 --db "$db" --json >/dev/null
"$headroom" launch measure --session "$work/session.json" --runs 5 --no-deferred --db "$db" \
  --out-dir "$work/reports" >/dev/null
history=$("$headroom" launch history --db "$db")
grep -q "@firstPreviewFrame" <<<"$history" || fail "history lacks marks"
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
expect_usage "bad.json: marks[0].time: expected seconds from 0 to 604800" launch report --from "$work/bad.json"
expect_usage "expected a subcommand" launch frobnicate
expect_usage "--format: expected json, csv, trace, md or html" launch report --format pdf --db "$db"
expect_usage "expected two run selections" launch compare deferred --db "$db"
expect_usage "run selector \"9-3\"" launch compare 9-3 1 --db "$db"
expect_usage "--runs does not apply to \`launch report\`" launch report --runs 3 --db "$db"
expect_usage "nope.json: no such file" launch measure --session "$work/nope.json" --db "$db"
expect_usage "nope.y4m: no such file" launch measure --frames "$work/nope.y4m" --db "$db"
expect_usage "--db: expected a path, got an empty one" launch history --db ''
expect_usage "--db: no history at $work/missing.sqlite3" launch history --check --db "$work/missing.sqlite3"
[[ ! -e "$work/missing.sqlite3" ]] || fail "launch history --check created the history it checked"

# Crash safety: SIGKILL a process in the middle of adding runs to the history (600 imports in
# a row) and in the middle of writing report files (every run exported), five times each.
crash_db="$work/crash.sqlite3"
sample=$(ls "$work"/reports/*.json | head -1)
# Distinct reports (an identical one is recognized and skipped): 600 start times.
mkdir -p "$work/distinct"
python3 - "$sample" "$work/distinct" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for index in range(600):
    report["startedAt"] = report["startedAt"] + 1
    json.dump(report, open(f"{sys.argv[2]}/run-{index:03}.json", "w"))
PY
mapfile -t copies < <(ls "$work"/distinct/run-*.json)

# Idempotent, all-or-nothing import: the same file twice adds one run; a batch with one bad
# file adds nothing.
"$headroom" launch import "${copies[0]}" --db "$work/idempotent.sqlite3" >/dev/null
"$headroom" launch import "${copies[0]}" "${copies[1]}" --db "$work/idempotent.sqlite3" \
  >"$work/import.out" 2>"$work/import.err"
grep -qF "is already run 1; skipped" "$work/import.err" || fail "a second import was not recognized"
grep -qF "imported 1 run(s)" "$work/import.out" || fail "the new file of the batch was not added"
printf '{ "label": 3 }' >"$work/bad-report.json"
status=0
"$headroom" launch import "${copies[2]}" "$work/bad-report.json" --db "$work/idempotent.sqlite3" \
  >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "a batch with a bad file: exit $status, expected 2"
runs=$("$headroom" launch history --db "$work/idempotent.sqlite3" --json | jq '.runs')
[[ $runs -eq 2 ]] || fail "after the imports the history has $runs runs, expected 2"
# Some runs stored before the kills, so that every round's report has something to write
# however slow the machine (an import is all or nothing: one killed early stores none).
"$headroom" launch import "${copies[@]:0:20}" --db "$crash_db" >/dev/null
for round in 1 2 3 4 5; do
  "$headroom" launch import "${copies[@]}" --db "$crash_db" >/dev/null 2>&1 &
  pid=$!
  sleep "$((RANDOM % 2 + 1)).$((RANDOM % 10))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  "$headroom" launch history --check --db "$crash_db" >/dev/null || fail "round $round: database damaged"

  "$headroom" launch report 1-100000000 --format json --out-dir "$work/crash" --db "$crash_db" \
    >/dev/null 2>&1 &
  pid=$!
  sleep "$((RANDOM % 2)).$((RANDOM % 8 + 2))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # `import` validates every file before storing any: one process checks them all.
  if compgen -G "$work/crash/run-*.json" >/dev/null; then
    "$headroom" launch import "$work"/crash/run-*.json --db "$work/verify.sqlite3" >/dev/null 2>&1 \
      || fail "round $round: a report file is partial"
  fi
done
newest=$("$headroom" launch report --db "$crash_db" | grep -c '"name"' || true)
reports=$(find "$work/crash" -name 'run-*.json' | wc -l)
echo "launch-checks: after 10 SIGKILLs mid-write, the history is intact and $reports reports are whole"
[[ $newest -gt 0 && $reports -gt 0 ]] || fail "nothing was written before the kills; the crash check proved nothing"

if ((failures > 0)); then
  echo "launch-checks: $failures failure(s)"
  exit 1
fi
echo "launch-checks: all passed"
