#!/usr/bin/env bash
# Signals as users send them: SIGINT/SIGTERM in the middle of `run` (the report and the history
# row are still written, marked interrupted; exit 130/143), `watch` stopped by a signal and by
# its pipe's reader going away, `serve` reloading its rules on SIGHUP instead of dying.
# Usage: scripts/signal-checks.sh PATH-TO-headroom
set -euo pipefail
headroom=${1:?usage: scripts/signal-checks.sh PATH-TO-headroom}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL signal-checks: $*" >&2; exit 1; }

# wait_for FILE TEXT: waits up to 30 s for TEXT to appear in FILE.
wait_for() {
  for _ in $(seq 300); do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "\"$2\" never appeared in $1"
}

for signal in INT TERM; do
  expected=$((128 + $(kill -l "$signal")))
  "$headroom" run --seconds 60 --out "$work/run-$signal" --db "$work/history.sqlite3" \
    >"$work/run-$signal.out" 2>"$work/run-$signal.err" &
  pid=$!
  pids+=("$pid")
  wait_for "$work/run-$signal.out" "headroom run:"
  sleep 3
  kill -s "$signal" "$pid"
  status=0
  wait "$pid" || status=$?
  [[ $status -eq $expected ]] || fail "run on SIG$signal: exit $status, expected $expected"
  jq -e '.wasInterrupted == true and .seconds < 60' "$work/run-$signal/run.json" >/dev/null \
    || fail "run on SIG$signal: run.json is not marked interrupted"
  grep -qF "(interrupted)" "$work/run-$signal/run.md" || fail "run on SIG$signal: run.md lacks it"
  echo "   run stopped by SIG$signal: exit $status, report marked interrupted"
done
runs=$("$headroom" launch history --db "$work/history.sqlite3" --json | jq '.runs')
[[ $runs -eq 2 ]] || fail "history has $runs runs after two interrupted runs, expected 2"

"$headroom" watch --model --interval 0.2 >"$work/watch.out" 2>/dev/null &
pid=$!
pids+=("$pid")
wait_for "$work/watch.out" " s "
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[[ $status -eq 143 ]] || fail "watch on SIGTERM: exit $status, expected 143"

# The reader goes away after one line: watch must notice without a level change to print.
timeout 20 bash -c "'$headroom' watch --model --interval 0.2 2>/dev/null | head -n 1 >/dev/null" \
  || fail "watch | head -1 did not end"
echo "   watch: SIGTERM exits 143; watch | head -1 ends"

"$headroom" serve --listen 127.0.0.1:0 --interval 0.5 --model >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
pids+=("$pid")
wait_for "$work/serve.out" "serving on"
kill -HUP "$pid"
wait_for "$work/serve.err" "SIGHUP: no --config to reload"
kill -0 "$pid" 2>/dev/null || fail "serve died on SIGHUP"
kill -TERM "$pid"
wait "$pid" || fail "serve on SIGTERM after SIGHUP: exit $?"
echo "   serve: SIGHUP handled, SIGTERM exits 0"

# Under systemd (a watchdog every 50 ms here), SIGTERM still ends serve through its teardown:
# STOPPING=1 sent, "stopped" said, exit 0 — the watchdog's wait being cancelled is no failure.
python3 - "$work/notify" >"$work/notify.log" <<'PYTHON' &
import socket, sys
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(sys.argv[1])
listener.settimeout(30)
while True:
    message = listener.recv(4096).decode()
    print(message, flush=True)
    if message.startswith("STOPPING=1"):
        break
PYTHON
listener=$!
pids+=("$listener")
for _ in $(seq 100); do [[ -S $work/notify ]] && break; sleep 0.1; done
for attempt in 1 2 3 4 5; do
  NOTIFY_SOCKET="$work/notify" WATCHDOG_USEC=100000 "$headroom" serve --listen 127.0.0.1:0 \
    --interval 0.5 --model >"$work/serve.out" 2>"$work/serve.err" &
  pid=$!
  pids+=("$pid")
  wait_for "$work/serve.out" "serving on"
  sleep 0.3
  kill -TERM "$pid"
  status=0
  wait "$pid" || status=$?
  ((status == 0)) || fail "serve under a watchdog, SIGTERM ($attempt): exit $status: $(cat "$work/serve.err")"
  grep -qF "headroom serve: stopped" "$work/serve.err" || fail "serve under a watchdog did not say it stopped"
  ((attempt == 1)) && { wait "$listener" || true; grep -qF "STOPPING=1" "$work/notify.log" || fail "no STOPPING=1"; }
done
echo "   serve under a systemd watchdog: SIGTERM sends STOPPING=1 and exits 0 (5 times)"
echo "signal-checks: passed"
