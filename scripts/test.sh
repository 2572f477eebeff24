#!/usr/bin/env bash
# The test command: setup, build (warnings are errors), every test, the format lint and the
# end-to-end checks. One line per step on the console — what ran, how long it took, its last
# word — and the full output of every step in .build/test.log; a failing step shows its last
# 40 lines and where the rest is. Setup talks to the console directly (waiting for the package
# manager's lock says so as it happens).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
source scripts/env.sh

mkdir -p .build
log=$PWD/.build/test.log
: >"$log"
echo "test.sh: the full output goes to $log"
started=$SECONDS

# step TITLE COMMAND...: runs COMMAND, its output appended to the log; prints TITLE, the
# seconds it took and its last line of output, or on failure the last 40 lines and exits.
step() {
  local title=$1 output start=$SECONDS status=0
  shift
  output=$(mktemp)
  # On a terminal a step shows its latest line as it goes, unless steps run beside it.
  if [[ -t 1 && -z ${beside:-} && ${#lanes[@]} -eq 0 ]]; then
    printf '%-62s' "$title"
    # On a terminal, the step's latest line (a build's [n/m]) is shown as it goes.
    { "$@" 2>&1 || echo $? >"$output.status"; } | tee "$output" | while IFS= read -r line; do
      printf '\r%-62s %s\033[K' "$title" "${line:0:60}"
    done
    [[ -f $output.status ]] && status=$(<"$output.status") && rm -f "$output.status"
    printf '\r%-62s\033[K' "$title"
  else
    # On a pipe (CI, `| tee`), the start is said at once and, while the step runs, a line a
    # minute, so a long step is never silent.
    echo "$title …"
    "$@" >"$output" 2>&1 &
    local pid=$! next=60
    while kill -0 "$pid" 2>/dev/null; do
      if [[ -z ${beside:-} ]] && ((SECONDS - start >= next)); then
        echo "  … $title: $((SECONDS - start)) s so far"
        next=$((next + 60))
      fi
      sleep 1
    done
    wait "$pid" || status=$?
    printf '%-62s' "$title"
  fi
  # Whole, even when steps run beside each other.
  {
    flock 9
    { echo "== $title"; cat "$output"; } >>"$log"
  } 9>>"$log.lock"
  if ((status != 0)); then
    echo " FAILED after $((SECONDS - start)) s (exit $status); its last 40 lines:"
    tail -n 40 "$output"
    echo "test.sh: FAILED at \"$title\"; everything is in $log"
    rm -f "$output"
    exit "$status"
  fi
  local last
  # A step may print nothing (the lint when all is well): then there is no last word.
  last=$({ grep -v '^[[:space:]]*$' "$output" || true; } | tail -n 1 | sed -E 's/\x1b\[[0-9;]*[a-zA-Z]//g')
  echo " ok $((SECONDS - start)) s  ${last:0:70}"
  rm -f "$output"
}

headroom() { echo "$(swift build --show-bin-path)/headroom"; }

# beside STEP-FUNCTION ARGUMENTS...: runs the steps of STEP-FUNCTION in the background, one after another,
# beside the steps that follow until `joined`: for steps that wait on a broker, the network and
# the clock (a few seconds of CPU in a minute), or that keep one core busy for minutes, while the
# others use what is left. Their lines appear as they finish; a failure fails the run at
# `joined`, which waits for every lane started since the last.
lanes=()
beside() {
  beside=1 "$@" &
  lanes+=($!)
  # A failure in the foreground stops them too (their scripts clean up on SIGTERM).
  trap 'for lane in "${lanes[@]}"; do pkill -P "$lane" 2>/dev/null; kill "$lane" 2>/dev/null; done' EXIT
}
joined() {
  local lane
  for lane in "${lanes[@]}"; do
    wait "$lane" || { echo "test.sh: FAILED beside the other steps; everything is in $log"; exit 1; }
  done
  trap - EXIT
  lanes=()
}

# The waiting steps, in two lanes: a real mosquitto, Frigate's API and ROS 2 (184 s, 14 s of
# CPU), then the service's clients (curl, the Python client, Prometheus) and real GStreamer
# pipelines paced by the service (148 s, 35 s of CPU); in one lane they were the run's longest
# path (332 s). Started with the unit tests they ran beside the Python example's regions
# (OpenCV on both cores) and the Frigate check's ramp, a replay on real time, once skipped a
# rung: they start after them.
brokers() {
  step "MQTT and Home Assistant: a real mosquitto, a ramp, an outage, kill -9" scripts/mqtt-checks.sh "$1"
  step "Frigate governed through its MQTT API: profiles, pause, restore" scripts/frigate-checks.sh "$1"
  step "ROS 2: /diagnostics from the host service (rclpy in its own network namespace)" scripts/ros2-checks.sh "$1"
}
clients() {
  step "host service: API v1 with curl, advise, unit, install" scripts/service-checks.sh "$1"
  step "Python client against headroom serve (pytest)" scripts/python-client-checks.sh "$1"
  step "Prometheus scraping headroom serve; promtool" scripts/prometheus-integration.sh "$1"
  step "GStreamer: headroomrate and the headroom tracer in real pipelines" scripts/gstreamer-checks.sh "$1"
}
# The format lint (11 s on one core) and the documented commands (49 s of CPU in 67 s, most of
# it runs on real time), beside the command-line and person-model checks, which took 27 s more.
documented() {
  step "format lint" swift format lint --strict --recursive Package.swift Sources Tests
  step "every checked command in the README and docs/" scripts/doc-checks.sh "$1"
}

# The main job over the whole of vtest.avi, its two detectors at once for minutes (220 s of
# CPU): beside the video, sensor, board, storage, signal, launch and C library checks rather
# than before them (the test run used 62 % of its two cores with it in line: 715 s of CPU in
# 580 s). Started with the unit tests' end it slowed the command-line, model and regions
# checks before the waiting lanes by 70 s, and the run was no shorter.
# Pro video storage: recordings on real time into tmpfs and ext4 (57 s, mostly waiting on
# the clock): in a lane of its own rather than on the foreground's longest path.
storage() {
  step "pro video storage on tmpfs and ext4" scripts/storage-checks.sh "$1"
}
vtest() {
  step "the main job on vtest.avi against its published ground truth (TrackEval) above its floors" scripts/vtest-quality.sh "$1"
}

step "build (warnings are errors)" swift build --build-tests -Xswiftc -warnings-as-errors
# The binary's path, asked for once: `swift build --show-bin-path` waits for SwiftPM's lock,
# which a lane's `swift test` may hold.
binary=$(headroom)
step "unit and integration tests" swift test --skip-build
beside documented "$binary"
step "command-line checks" scripts/cli-checks.sh "$binary"
step "the person model's text graph is what its script makes" /usr/bin/python3 scripts/person_model_graph.py --check
step "the person model's installer: links, corrupt models, six runs at once" scripts/person-model-checks.sh
step "the Python example's person detector finds 90 % of the people counted by eye" /usr/bin/python3 scripts/person_detector_check.py --timed 3
step "the Python example's regions find more of the published people than its whole frame" /usr/bin/python3 scripts/person_detector_check.py --published --frames 150 --least-gain 0.1
step "hardening: destinations, bounds, recovery, descriptors" scripts/hardening-checks.sh "$binary"
step "HOTA against TrackEval (skipped without Python)" scripts/hota-crosscheck.sh "$binary"
step "tracker on real pedestrians (TUD, TrackEval) above its floors" scripts/real-data-quality.sh "$binary"
beside brokers "$binary"
beside clients "$binary"
beside vtest "$binary"
beside storage "$binary"
step "real video through ffmpeg: --source, --gt, --annotate" scripts/video-checks.sh "$binary"
step "real libsensors on fake hwmon trees" scripts/sensors-fixture-test.sh "$binary"
step "boards: Raspberry Pi and Jetson sysfs trees" scripts/board-checks.sh "$binary"
step "signals: run, watch and serve mid-work" scripts/signal-checks.sh "$binary"
step "launch checks (measure, compare, crash safety)" scripts/launch-checks.sh "$binary"
step "launch measure -- CMD: real children, failures, trace import" scripts/program-launch-checks.sh "$binary"
step "build libheadroom (the C library)" swift build --product headroom-c -Xswiftc -warnings-as-errors
step "libheadroom from C: pkg-config, ASan, the C example measured" scripts/c-library-checks.sh "$binary"
joined
# Alone: a release build on both cores, then the package installed and served.
step "Debian package: release build, lintian, install, serve, purge" scripts/package-checks.sh

echo "test.sh: all passed in $((SECONDS - started)) s (full output: $log)"
