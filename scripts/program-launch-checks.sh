#!/usr/bin/env bash
# `headroom launch measure -- CMD` end to end with real child processes: a bash program that
# speaks the trace-descriptor protocol, measured 10 times into a history; a slower build of it
# flagged by `launch compare` (exit 1) and the same build not (exit 0); a crashing child, a
# child that never says ready and one that floods the descriptor, each stored and shown as
# what it was; a Chrome trace imported and rendered; usage errors.
# Usage: scripts/program-launch-checks.sh HEADROOM [--show]
set -euo pipefail
headroom=${1:?usage: scripts/program-launch-checks.sh PATH-TO-headroom [--show]}
show=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
db="$work/history.sqlite3"
run() {
  [[ $show == --show ]] && echo "\$ headroom $*"
  "$headroom" "$@"
}

# A launcher in bash: its phases, then ready. DELAY is how long its "model" takes to load.
cat >"$work/app.sh" <<'SH'
#!/usr/bin/env bash
trace() { printf '%s\n' "$1" >&"$HEADROOM_TRACE_FD"; }
trace '{"ph":"B","name":"app.init"}'
sleep "${DELAY:-0.02}"
trace '{"ph":"E","name":"app.init"}'
trace '{"ph":"B","name":"session.start"}'
echo "app: camera open"
trace '{"ph":"E","name":"session.start"}'
trace '{"ph":"i","name":"first_frame"}'
trace '{"ph":"i","name":"ready"}'
exec sleep 60
SH
chmod +x "$work/app.sh"

run launch measure --runs 10 --label app --db "$db" --output "$work/app.log" -- "$work/app.sh" \
  >"$work/measure.out" || fail "measuring the bash app failed"
[[ $show == --show ]] && cat "$work/measure.out"
[[ $(grep -c ': ready at ' "$work/measure.out") -eq 10 ]] || { fail "10 runs did not all say ready"; cat "$work/measure.out"; }
[[ $(grep -c 'app: camera open' "$work/app.log") -eq 10 ]] || fail "--output did not get the program's output"
run launch history --label app --db "$db" >"$work/history.out"
[[ $show == --show ]] && cat "$work/history.out"
for figure in processStart appInit sessionStart @firstPreviewFrame @ready; do
  grep -q "^$figure " "$work/history.out" || fail "history lacks $figure"
done
DELAY=0.15 "$headroom" launch measure --runs 10 --label slow --db "$db" --output /dev/null \
  -- "$work/app.sh" >/dev/null || fail "measuring the slow build failed"
status=0
run launch compare app slow --db "$db" >"$work/compare.out" || status=$?
[[ $show == --show ]] && cat "$work/compare.out"
[[ $status -eq 1 ]] || { fail "compare app slow: exit $status, expected 1"; cat "$work/compare.out"; }
grep -q "^appInit .*regression" "$work/compare.out" || fail "compare did not flag appInit"
"$headroom" launch compare app~5 app --db "$db" >/dev/null || fail "app against itself flagged"

# A crash, a child that never says ready, a flood: stored as what they were.
printf '%s\n' 'printf '"'"'{"ph":"B","name":"app.init"}\n'"'"' >&3' 'kill -SEGV $$' >"$work/crash.sh"
printf '%s\n' 'printf '"'"'{"ph":"B","name":"app.init"}\n'"'"' >&3' 'exec sleep 60' >"$work/hang.sh"
cat >"$work/flood.sh" <<'SH'
printf 'this is not json\n' >&3
printf '{"ph":"E","name":"never.begun"}\n' >&3
head -c 9000 /dev/zero | tr '\0' x >&3; echo >&3
yes '{"ph":"i","name":"tick"}' | head -n 20000 >&3
printf '{"ph":"i","name":"ready"}\n' >&3
SH
status=0
run launch measure --runs 2 --db "$db" -- bash "$work/crash.sh" >"$work/crash.out" || status=$?
[[ $status -eq 1 ]] || fail "a crashing child: exit $status, expected 1"
grep -q "FAILED: killed by signal 11 (SIGSEGV) (after [0-9.]* ms)" "$work/crash.out" || { fail "the crash was not reported with when it happened"; cat "$work/crash.out"; }
grep -q "after 0.000 ms" "$work/crash.out" && fail "a crash reported at 0 ms"
status=0
start=$SECONDS
run launch measure --runs 1 --timeout 0.5 --db "$db" -- bash "$work/hang.sh" >"$work/hang.out" || status=$?
[[ $status -eq 1 ]] || fail "a child that never says ready: exit $status, expected 1"
((SECONDS - start < 10)) || fail "the hanging child was not stopped at the timeout"
grep -q "FAILED: not ready within 0.5 s" "$work/hang.out" || { fail "the timeout was not reported"; cat "$work/hang.out"; }
grep -q "FAILED: not ready within 0.5 s (after" "$work/hang.out" && fail "a program stopped at the timeout reported as ended"
run launch measure --runs 1 --db "$db" -- bash "$work/flood.sh" >"$work/flood.out" || fail "the flood failed"
for note in "1 malformed line(s) ignored" "1 line(s) over 4096 bytes ignored" \
  "1 end event(s) without a begin ignored" "event(s) over the limit of 10000 dropped"; do
  grep -qF "$note" "$work/flood.out" || { fail "the flood's notes lack \"$note\""; cat "$work/flood.out"; }
done
grep -q "ready at" "$work/flood.out" || fail "ready after a flood was not seen"
[[ $show == --show ]] && cat "$work/crash.out" "$work/hang.out" "$work/flood.out"
run launch history --runs 4 --db "$db" >"$work/failed.out"
[[ $show == --show ]] && cat "$work/failed.out"
grep -q "3 failed, left out of the figures" "$work/failed.out" || { fail "history does not count the failed runs"; cat "$work/failed.out"; }
grep -q "(crash.sh): killed by signal 11" "$work/failed.out" || fail "history does not show the crash"
grep -q "(hang.sh): not ready within 0.5 s" "$work/failed.out" || fail "history does not show the timeout"
grep -q "Failed: killed by signal 11" <(run launch report crash.sh --format md --db "$db") \
  || fail "the report of a crashed run does not say so"
grep -q "malformed line" <("$headroom" launch report flood.sh --format html --db "$db") \
  || fail "the HTML report lacks the flood's notes"

# A Chrome trace from another tool: imported (one process picked) and rendered.
fixture="$(dirname "${BASH_SOURCE[0]}")/../Tests/Fixtures/traces/viztracer-camera.json"
run launch import "$fixture" --db "$db" --label traced >"$work/import.out" \
  || { fail "importing the viztracer trace"; cat "$work/import.out"; }
run launch report traced --format md --db "$db" >"$work/traced.md" || fail "rendering the imported trace"
[[ $show == --show ]] && head -20 "$work/traced.md"
grep -q "open_camera" "$work/traced.md" || fail "the imported trace lacks its phases"

# The Python people detector (examples/python) marks its phases through headroom_client.
if /usr/bin/python3 -c 'import cv2' 2>/dev/null; then
  ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 10 "$work/clip.avi"
  example="$(dirname "${BASH_SOURCE[0]}")/../examples/python/people_detector.py"
  # Without its model, or with a model cut short, it stops at once: exit 2 naming the installer.
  mkdir -p "$work/no-models" "$work/cut-models"
  models=$("$(dirname "${BASH_SOURCE[0]}")/person-model.sh" --find)
  head -c 1000 "$models/person-ssdlite.pb" >"$work/cut-models/person-ssdlite.pb"
  cp "$models/person-ssdlite-300.pbtxt" "$work/cut-models/"
  for broken in no-models cut-models; do
    status=0
    /usr/bin/python3 "$example" --no-service --frames 1 --source "$work/clip.avi" \
      --models "$work/$broken" >/dev/null 2>"$work/py-$broken.err" || status=$?
    ((status == 2)) && grep -qF "scripts/person-model.sh" "$work/py-$broken.err" \
      || fail "the Python example with $broken: exit $status: $(cat "$work/py-$broken.err")"
  done
  for variant in eager deferred; do
    flags=(--no-service --frames 1 --source "$work/clip.avi")
    [[ $variant == deferred ]] && flags+=(--deferred)
    "$headroom" launch measure --runs 2 --label "py-$variant" --db "$db" --output "$work/py.log" \
      -- /usr/bin/python3 "$example" "${flags[@]}" >/dev/null || { fail "measuring the Python example ($variant)"; tail "$work/py.log"; }
  done
  for variant in eager deferred; do
    "$headroom" launch history --label "py-$variant" --db "$db" >"$work/py-history.out"
    expected=(imports appInit camera.open @firstPreviewFrame @ready)
    [[ $variant == eager ]] && expected+=(detector.load) || expected+=(deferredStart)
    for figure in "${expected[@]}"; do
      grep -q "^$figure " "$work/py-history.out" || { fail "the Python example ($variant) lacks $figure"; cat "$work/py-history.out"; }
    done
  done
else
  echo "program-launch-checks: note: no python3-opencv; the Python example was not measured"
fi

# Usage errors: exit 2, a message that says what is wrong.
expect_usage() {
  local needle=$1 status=0
  shift
  "$headroom" "$@" >"$work/out" 2>"$work/err" || status=$?
  [[ $status -eq 2 ]] || fail "headroom $*: exit $status, expected 2"
  grep -qF -- "$needle" "$work/err" || { fail "headroom $*: stderr lacks \"$needle\""; cat "$work/err"; }
}
expect_usage "expected a command after --" launch measure --db "$db" --
expect_usage "no such program in PATH" launch measure --db "$db" -- no-such-program-here
expect_usage "--session measures Headroom's own session" launch measure --session x.json --db "$db" -- true
expect_usage "--ready: only with a command" launch measure --ready go --db "$db"
expect_usage "--timeout: expected a number" launch measure --timeout 0 --db "$db" -- true
expect_usage "--pid: " launch import "$work/nothing.json" --pid -3 --db "$db"

if ((failures > 0)); then
  echo "program-launch-checks: $failures failure(s)"
  exit 1
fi
echo "program-launch-checks: all passed (a bash app 10+10 runs, compare gating, crash, timeout, flood, trace import)"
