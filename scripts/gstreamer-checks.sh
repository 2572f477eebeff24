#!/usr/bin/env bash
# Headroom's GStreamer pieces in real gst-launch-1.0 pipelines (docs/gstreamer.md), installed
# by scripts/install-gstreamer.sh into a scratch prefix and found through GST_PLUGIN_PATH:
#   - headroomrate against a real `headroom serve --trace` replaying the thermal ramp (at twice
#     its speed, with limits that take it to shutdown): the buffers passed at each advice step
#     against the advised rate (scripts/gstreamer_steps.py), none while paused, and the stream
#     still reaches EOS while paused;
#   - the service killed mid-stream: everything passes, and the element registers again when
#     the service returns on the same port; no service at all: everything passes;
#   - pacing by running time: a seek at rate −1 (reverse playback), 2 and −0.5 paced as forward
#     playback is, and a stream of a frame every 10000 s at its own advised rate passing every
#     buffer (scripts/gstreamer_steps.py --seek, which counts the buffers; gst-launch-1.0 cannot
#     seek); a 2000 fps stream, whose registration the service refuses (above 1000 fps): one
#     warning, every buffer passes, the pipeline ends well;
#   - every property checked, with an error naming it;
#   - the headroom tracer: `headroom launch measure -- gst-launch-1.0 …` gets the pipeline's
#     phases, first_frame and ready; without the variables it hooks nothing; a full or closed
#     trace pipe never blocks or kills the pipeline.
# Waits are on conditions with deadlines; no timings are asserted. Pipelines that are stopped
# with SIGINT (-e: an EOS first) run under `timeout --foreground`, which passes the signal on
# once; a plain `timeout` also signals its process group, and a second SIGINT kills gst-launch.
# Usage: scripts/gstreamer-checks.sh HEADROOM-BINARY [--show]
# HEADROOMRATE=FILE installs FILE as the element instead of the tree's (pytest tests it too), to
# show a check fails on an older one: HEADROOMRATE=<(git show REV:clients/gstreamer/python/headroomrate.py)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
headroom=${1:?usage: scripts/gstreamer-checks.sh PATH-TO-headroom [--show]}
show=${2:-}
python=/usr/bin/python3
repo=$PWD
work=$(mktemp -d)
pids=()
cleanup() {
  for file in "$work"/*.pid; do [[ -f $file ]] && pids+=("$(cat "$file")"); done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -n ${KEEP:-} ]] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
note() { echo "== $*"; }

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.1 s until it succeeds;
# false (and a failure) when SECONDS pass first.
wait_for() {
  local seconds=$1 what=$2 deadline
  shift 2
  deadline=$(($(date +%s%N) + seconds * 1000000000))
  until "$@"; do
    if (($(date +%s%N) > deadline)); then
      fail "$what: not within $seconds s"
      return 1
    fi
    sleep 0.1
  done
}

# Installed as a user would, into a scratch prefix; a registry of our own, so nothing stale.
scripts/install-gstreamer.sh --prefix "$work/prefix" >/dev/null
export GST_PLUGIN_PATH=$work/prefix/lib/gstreamer-1.0
export GST_REGISTRY=$work/registry.bin
if [[ -n ${HEADROOMRATE:-} ]]; then
  cat "$HEADROOMRATE" >"$GST_PLUGIN_PATH/python/headroomrate.py"
  echo "== headroomrate from $HEADROOMRATE, not the tree's"
fi
unset PYTHONPATH GST_TRACERS GST_DEBUG HEADROOM_TRACE_FD HEADROOM_TRACE_ID

note "the element's pacing and parsing (pytest)"
# The installed element, with the client installed beside it.
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$GST_PLUGIN_PATH/python "$python" -m pytest -q -p no:cacheprovider \
  clients/gstreamer/tests >"$work/pytest.out" 2>&1 || { fail "pytest clients/gstreamer/tests"; tail -20 "$work/pytest.out"; }

note "gst-inspect-1.0 documents both"
gst-inspect-1.0 headroomrate >"$work/inspect.out" 2>&1 || fail "gst-inspect-1.0 headroomrate failed"
for property in service client-name priority nominal-rate min-rate ladder enforce-rate \
  advised-rate ladder-step ladder-name level in out drop; do
  grep -q "^  $property  *:" "$work/inspect.out" || fail "gst-inspect-1.0 headroomrate lacks $property"
done
grep -q '"advice-changed"' "$work/inspect.out" || fail "gst-inspect-1.0 headroomrate lacks advice-changed"
gst-inspect-1.0 headroomtracer >"$work/inspect-tracer.out" 2>&1 || true
grep -q 'headroom (GstTracerFactory)' "$work/inspect-tracer.out" \
  || fail "gst-inspect-1.0 headroomtracer lists no headroom tracer"

note "every property checked, the error naming it"
check_refused() { # PROPERTY=VALUE EXPECTED-WORDS
  local status=0
  timeout 30 gst-launch-1.0 videotestsrc num-buffers=5 ! headroomrate "$1" ! fakesink \
    >"$work/refused.out" 2>&1 || status=$?
  ((status != 0)) || fail "headroomrate $1 was accepted"
  grep -qF "$2" "$work/refused.out" || { fail "headroomrate $1: no error saying \"$2\""; tail -3 "$work/refused.out"; }
}
check_refused ladder=full 'ladder[0]: expected NAME:COST or NAME:COST:QUALITY'
check_refused ladder=full:150,coarse:-1 'ladder[1].cost: expected a cost > 0'
check_refused ladder=/nonexistent/ladder.json 'ladder (/nonexistent/ladder.json): cannot read it'
check_refused priority=101 'priority: expected an integer from 0 to 100, got 101'
check_refused nominal-rate=-1 'nominal-rate: expected frames a second from 0'
check_refused min-rate=5000 'min-rate: expected frames a second from 0'
check_refused service=ftp://host 'service: expected http://HOST:PORT or unix:PATH'
check_refused poll-interval=0 'poll-interval: expected 0.05 to 60 seconds'
check_refused report-interval=1000 'report-interval: expected 0.05 to 600 seconds'
check_refused "client-name=$(printf 'x%.0s' {1..65})" 'client-name: expected 1 to 64 printable characters'
echo '{"name":"x","ladder":[{"name":"a","cost":1}],"color":"red"}' >"$work/bad-ladder.json"
check_refused "ladder=$work/bad-ladder.json" 'color: unknown key'
status=0
timeout 30 gst-launch-1.0 videotestsrc num-buffers=5 ! video/x-raw,framerate=30/1 \
  ! headroomrate service=http://127.0.0.1:1 nominal-rate=10 min-rate=20 ! fakesink \
  >"$work/refused.out" 2>&1 || status=$?
((status != 0)) && grep -qF 'min-rate: expected at most the nominal rate (10 fps), got 20' "$work/refused.out" \
  || fail "min-rate above nominal-rate was not refused by name"

note "no service: everything passes and the stream ends"
timeout 60 gst-launch-1.0 -m videotestsrc num-buffers=300 ! video/x-raw,framerate=30/1 \
  ! headroomrate service=http://127.0.0.1:1 ! fakesink >"$work/absent.out" 2>&1 \
  || fail "the pipeline without a service failed"
grep -q 'headroom-eos, in=(guint64)300, out=(guint64)300, drop=(guint64)0' "$work/absent.out" \
  || { fail "without a service not all 300 buffers passed"; grep headroom- "$work/absent.out"; }

# serve_on PORT-OR-0 LOG ARGS...: starts headroom serve (its pid in LOG.pid, for the
# cleanup), waits for "serving on", prints the port.
serve_on() {
  local port=$1 log=$2
  shift 2
  "$headroom" serve --listen "127.0.0.1:$port" --interval 0.5 "$@" >"$log" 2>&1 &
  echo $! >"$log.pid"
  wait_for 20 "headroom serve saying it serves ($log)" grep -q '^serving on ' "$log" || return 1
  sed -n 's/^serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$log"
}
has_message() { grep -q "$2" "$1" 2>/dev/null; }
# live_pipeline LOG PORT PROPERTY...: a live 30 fps stream through headroomrate (following the
# service on PORT) into fakesink, in the background until stop_pipeline; its pid in $live_pid.
live_pipeline() {
  local log=$1 port=$2
  shift 2
  timeout --foreground 120 gst-launch-1.0 -e -m videotestsrc is-live=true \
    ! video/x-raw,width=64,height=48,framerate=30/1 \
    ! headroomrate service="http://127.0.0.1:$port" "$@" ! fakesink >"$log" 2>&1 &
  live_pid=$!
  pids+=("$live_pid")
}
# stop_pipeline PID LOG WHAT: SIGINT (-e: an EOS first); it must end well, past its EOS.
stop_pipeline() {
  local status=0
  kill -INT "$1" 2>/dev/null || true
  wait "$1" || status=$?
  ((status == 0)) || { fail "$3 ended with $status"; tail -5 "$2"; }
  has_message "$2" 'headroom-eos' || fail "$3 did not reach EOS"
}
# judge_steps LOG KINDS TITLE: passed against advised at each step (scripts/gstreamer_steps.py).
judge_steps() {
  "$python" scripts/gstreamer_steps.py "$1" --expect "$2" >"$1.table" || { fail "$3: its steps"; cat "$1.table"; }
  if [[ $show == --show ]]; then echo "$3:"; cat "$1.table"; fi
}

note "pacing by running time: reverse playback and other rates as forward; a slow stream exact"
pace_port=$(serve_on 0 "$work/serve-pace.log")
# nominal = minimum = 5 fps: the advice is 5 fps whatever the host's level (but shutdown).
for rate in 1 -1 2 -0.5; do
  "$python" scripts/gstreamer_steps.py --seek "$rate" --service "http://127.0.0.1:$pace_port" \
    --framerate 30/1 --seconds 4 --set nominal-rate=5 --set min-rate=5 \
    >"$work/seek$rate.out" 2>"$work/seek$rate.err" \
    || { fail "a seek at rate $rate: not paced to the advice"; grep -v floating "$work/seek$rate.out"; }
  if [[ $show == --show ]]; then cat "$work/seek$rate.out"; fi
done
# A frame every 10000 s, advised its own rate (nominal and minimum: the caps' 1/10000).
"$python" scripts/gstreamer_steps.py --seek 1 --service "http://127.0.0.1:$pace_port" \
  --framerate 1/10000 --seconds 60000 --set min-rate=0.0001 >"$work/slow.out" 2>"$work/slow.err" \
  || { fail "a stream of 1/10000 fps at its advised rate: not every buffer passed"; cat "$work/slow.out"; }
if [[ $show == --show ]]; then cat "$work/slow.out"; fi

note "a registration the service refuses (2000 fps, above its 1000): one warning, all pass"
timeout --foreground 120 gst-launch-1.0 -e -m videotestsrc is-live=true \
  ! video/x-raw,width=16,height=16,framerate=2000/1 \
  ! headroomrate service="http://127.0.0.1:$pace_port" ! fakesink >"$work/refused-2000.out" 2>&1 &
refused_pid=$!
pids+=("$refused_pid")
refused_warning='WARNING: from element .*the service refused the registration (nominalFrameRate: expected 0 < fps ≤ 1000'
# The element's answer to the refusal (a warning then its fallback advice), or the pipeline's
# end (the element erring it, as it once did).
refusal_answered() {
  has_message "$work/refused-2000.out" 'headroom-advice.*fallback=(boolean)true' \
    || ! kill -0 "$refused_pid" 2>/dev/null
}
wait_for 30 "the 2000 fps pipeline's answer to the refusal" refusal_answered || true
stop_pipeline "$refused_pid" "$work/refused-2000.out" "the 2000 fps pipeline"
[[ $(grep -c "$refused_warning" "$work/refused-2000.out") == 1 ]] \
  || { fail "the refused registration: not one warning"; grep -E 'WARNING|ERROR' "$work/refused-2000.out"; }
grep -q 'headroom-eos, in=(guint64)\([1-9][0-9]*\), out=(guint64)\1, drop=(guint64)0' "$work/refused-2000.out" \
  || { fail "the refused registration: not every buffer passed"; grep headroom- "$work/refused-2000.out"; }

# The thermal ramp at twice its recorded speed (36 s); limits that take it to shutdown (85 °C).
"$python" - "$repo/examples/traces/thermal-ramp.jsonl" "$work/ramp.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as target:
    for line in source:
        sample = json.loads(line)
        sample["time"] = sample["time"] / 2
        target.write(json.dumps(sample) + "\n")
PY
echo '{"temperature": {"sensors": {"model/cpu": {"high": 65, "critical": 85}}}}' >"$work/limits.json"
cat >"$work/ramp-ladder.json" <<'JSON'
{"name": "ramp", "priority": 5, "nominalFrameRate": 30, "minFrameRate": 2, "share": 0.3,
 "ladder": [{"name": "full", "cost": 150}, {"name": "coarse", "cost": 44}]}
JSON

note "the ramp: passed against advised at each step, a pause, EOS while paused"
ramp_port=$(serve_on 0 "$work/serve-ramp.log" --trace "$work/ramp.jsonl" --config "$work/limits.json")
# 30 s of live 30 fps: it ends while the ramp holds the host at shutdown (from about 23 s).
timeout 90 gst-launch-1.0 -m videotestsrc is-live=true num-buffers=900 \
  ! video/x-raw,width=64,height=48,framerate=30/1 \
  ! headroomrate service="http://127.0.0.1:$ramp_port" ladder="$work/ramp-ladder.json" \
  ! fakesink >"$work/ramp.out" 2>&1 &
ramp_pid=$!
pids+=($ramp_pid)

note "the service killed mid-stream and back on its port (beside the ramp)"
cat >"$work/kill-ladder.json" <<'JSON'
{"name": "killed", "priority": 5, "nominalFrameRate": 30, "minFrameRate": 7.5,
 "ladder": [{"name": "full", "cost": 150}, {"name": "coarse", "cost": 44}]}
JSON
# Beside them, a pipeline whose downstream takes 50 ms a buffer at 30 fps: its sink's QoS
# events say so, the element reports them as late, and the governor sheds it (checked below).
late_port=$(serve_on 0 "$work/serve-late.log")
timeout --foreground 120 gst-launch-1.0 -e -m videotestsrc is-live=true \
  ! video/x-raw,width=64,height=48,framerate=30/1 \
  ! headroomrate service="http://127.0.0.1:$late_port" ! identity sleep-time=50000 \
  ! fakesink sync=true qos=true >"$work/late.out" 2>&1 &
late_pid=$!
pids+=("$late_pid")
# And beside both, a pipeline that only observes (checked below).
observe_port=$(serve_on 0 "$work/serve-observe.log" --trace "$work/ramp.jsonl")
live_pipeline "$work/observe.out" "$observe_port" ladder="$work/kill-ladder.json" enforce-rate=false
observe_pid=$live_pid
kill_port=$(serve_on 0 "$work/serve-kill.log" --trace "$work/ramp.jsonl")
live_pipeline "$work/kill.out" "$kill_port" ladder="$work/kill-ladder.json" client-name=killed
kill_pid=$live_pid
if wait_for 30 "the killed pipeline shedding to 7.5 fps" has_message "$work/kill.out" 'frame-rate=(double)7.5'; then
  # Shed until the ramp's next level (fair) closes that step.
  wait_for 30 "the ramp reaching fair" has_message "$work/kill.out" 'level=(string)fair' || true
  kill -KILL "$(cat "$work/serve-kill.log.pid")"
  wait_for 20 "the element falling back to nominal advice" has_message "$work/kill.out" 'fallback=(boolean)true'
  # The stream runs without its service for a while: that time is what is checked here.
  sleep 2
  serve_on "$kill_port" "$work/serve-kill-2.log" --trace "$work/ramp.jsonl" >/dev/null
  wait_for 30 "the element registering again" \
    bash -c "grep -q '\"killed\"' <(curl -sf http://127.0.0.1:$kill_port/v1/clients)"
  wait_for 20 "advice again after the fallback" \
    bash -c "grep -A1000 'fallback=(boolean)true' '$work/kill.out' | grep -q 'fallback=(boolean)false'"
  # Governed again: the replay, started anew, sheds it again.
  wait_for 30 "shedding again after registering again" \
    bash -c "grep -A1000 'fallback=(boolean)true' '$work/kill.out' | grep -q 'frame-rate=(double)7.5.*fallback=(boolean)false'"
fi
stop_pipeline "$kill_pid" "$work/kill.out" "the pipeline whose service was killed"
judge_steps "$work/kill.out" shed,fallback,return "the service killed and back"

status=0
wait "$ramp_pid" || status=$?
((status == 0)) || { fail "the ramp pipeline ended with $status"; tail -5 "$work/ramp.out"; }
grep -q 'Got EOS from element "pipeline0"' "$work/ramp.out" || fail "the ramp pipeline did not reach EOS"
judge_steps "$work/ramp.out" shed,pause,eos "the ramp"

note "late downstream (QoS) reported: the governor sheds the pipeline"
late_advice() { (($(grep -c 'reason=(string)"pipeline\\ late' "$work/late.out") >= 2)); }
# Two steps shed for lateness: the first is then a whole step, judged against its advice.
wait_for 30 "advice shed for lateness, twice" late_advice || true
stop_pipeline "$late_pid" "$work/late.out" "the late pipeline"
judge_steps "$work/late.out" shed "the late pipeline"

note "enforce-rate=false observes only"
wait_for 30 "advice of 7.5 fps while observing" has_message "$work/observe.out" 'frame-rate=(double)7.5' || true
stop_pipeline "$observe_pid" "$work/observe.out" "the observing pipeline"
grep -q 'headroom-eos, in=(guint64)\([0-9]*\), out=(guint64)\1, drop=(guint64)0' "$work/observe.out" \
  || { fail "enforce-rate=false dropped buffers"; grep headroom-eos "$work/observe.out"; }

note "the tracer under launch measure"
vtest=$(dpkg -L opencv-doc 2>/dev/null | grep '/vtest\.avi$' | head -n 1 || true)
[[ -n $vtest ]] || fail "no vtest.avi (opencv-doc)"
db=$work/history.sqlite3
GST_TRACERS=headroom "$headroom" launch measure --runs 3 --label vtest --db "$db" --output "$work/vtest.log" \
  -- gst-launch-1.0 filesrc location="$vtest" ! decodebin ! videoconvert ! fakesink >"$work/measure.out" \
  || { fail "launch measure of the vtest pipeline failed"; cat "$work/measure.out"; }
[[ $(grep -c ': ready at ' "$work/measure.out") -eq 3 ]] || { fail "not every run said ready"; cat "$work/measure.out"; }
"$headroom" launch history --label vtest --db "$db" >"$work/history.out"
if [[ $show == --show ]]; then cat "$work/history.out"; fi
for phase in processStart pipeline0:null-ready pipeline0:ready-paused pipeline0:paused-playing \
  filesrc0:ready-paused decodebin0/avidemux0:ready-paused @firstPreviewFrame @ready; do
  grep -q "^$phase " "$work/history.out" || fail "launch history lacks $phase"
done

# The tracer alone, its pipe given by hand (as measure gives it): full, closed, reused.
cat >"$work/pipe.py" <<'PY'
"""Runs gst-launch-1.0 with the trace pipe as descriptor 3 in MODE: read (print the lines),
full (never read, filled first), closed (reader gone), reused (3 is a file, not the pipe)."""
import fcntl, os, subprocess, sys
mode, arguments = sys.argv[1], sys.argv[2:]
# Both ends above 3, so that making the pipe descriptor 3 closes neither.
ends = os.pipe()
read_end, write_end = (fcntl.fcntl(end, fcntl.F_DUPFD_CLOEXEC, 10) for end in ends)
for end in ends:
    os.close(end)
if mode == "full":
    os.set_blocking(write_end, False)
    try:
        while True:
            os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
status = os.fstat(write_end)
env = dict(os.environ, HEADROOM_TRACE_FD="3", HEADROOM_TRACE_ID=f"{status.st_dev}:{status.st_ino}")
if mode == "closed":
    os.close(read_end)
given = write_end
if mode == "reused":
    given = os.open(sys.argv[0] + ".reused", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
os.dup2(given, 3, inheritable=True)
child = subprocess.Popen(arguments, env=env, pass_fds=(3,), stdout=subprocess.DEVNULL)
os.close(3)
os.close(write_end)
try:
    code = child.wait(timeout=60)
except subprocess.TimeoutExpired:
    child.kill()
    print("TIMEOUT: the pipeline blocked")
    sys.exit(1)
if mode == "read":
    sys.stdout.write(os.read(read_end, 1 << 20).decode())
print(f"exit {code}")
PY
pipeline=(gst-launch-1.0 videotestsrc num-buffers=100 ! fakesink)
GST_TRACERS=headroom "$python" "$work/pipe.py" read "${pipeline[@]}" >"$work/pipe-read.out" 2>&1 || true
grep -q '"name":"first_frame".*"args":{"sink":"fakesink0"}' "$work/pipe-read.out" \
  || { fail "no first_frame naming fakesink0"; cat "$work/pipe-read.out"; }
grep -q '"ph":"i","name":"ready"' "$work/pipe-read.out" || fail "no ready"
grep -q '"ph":"X","name":"pipeline0:ready-paused","ts":[0-9]*,"dur":[0-9]*' "$work/pipe-read.out" \
  || fail "no pipeline0:ready-paused phase"
grep -q '^exit 0$' "$work/pipe-read.out" || fail "the traced pipeline failed"
for mode in full closed; do
  GST_TRACERS=headroom "$python" "$work/pipe.py" "$mode" "${pipeline[@]}" >"$work/pipe-$mode.out" 2>&1 || true
  grep -q '^exit 0$' "$work/pipe-$mode.out" || { fail "a $mode trace pipe: the pipeline did not end well"; cat "$work/pipe-$mode.out"; }
done
GST_TRACERS=headroom "$python" "$work/pipe.py" reused "${pipeline[@]}" >"$work/pipe-reused.out" 2>&1 || true
grep -q '^exit 0$' "$work/pipe-reused.out" || fail "a reused descriptor 3: the pipeline failed"
[[ ! -s $work/pipe.py.reused ]] || fail "the tracer wrote into a descriptor 3 that was not the trace pipe"
GST_TRACERS=headroom GST_DEBUG=headroomtracer:5 gst-launch-1.0 videotestsrc num-buffers=10 ! fakesink \
  >"$work/unset.out" 2>&1 || fail "GST_TRACERS=headroom without HEADROOM_TRACE_FD failed"
grep -q 'no hooks' "$work/unset.out" || fail "without HEADROOM_TRACE_FD the tracer did not say it hooks nothing"

if ((failures > 0)); then
  echo "gstreamer-checks: $failures failure(s)"
  exit 1
fi
echo "gstreamer-checks: all passed (headroomrate on the ramp, killed service, properties; the tracer)"
