#!/usr/bin/env bash
# The main job, explained step by step: setup, release build, a session priced before it is
# committed (and why it does not fit), the planner's fix, then `headroom run` — the tracking
# pipeline on the synthetic scene with the simulated stand in a room that heats up, and the
# governor adapting. Leaves its reports in runs/demo (open run.html), or, with the governor on
# against off (--video, --compare), in runs/demo/governor-on and runs/demo/governor-off.
#
# By default the run is deterministic: pressure is replayed, in time, from a recorded
# thermal-ramp trace (examples/traces/thermal-ramp.jsonl) through the real classifier and
# governor, which follows pressure only — so the levels and the governor's changes are the same
# on an idle and a busy machine. `--live` uses this host's sensors instead (or, without any,
# the thermal model heated by the pipeline's modelled work). `--video` plays real video instead:
# OpenCV's vtest.avi through the neural person detector, on virtual time under the scenario's
# thermal model, the governor on against off. Other arguments go to `headroom run` (e.g.
# `--compare`, `--seconds 30`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
source scripts/env.sh

live=false
video=false
compare=false
run_arguments=()
for argument in "$@"; do
  case $argument in
    --live) live=true ;;
    --video) video=true ;;
    --compare) compare=true ;;
    *) run_arguments+=("$argument") ;;
  esac
done
# --video compares by itself; `headroom run` takes --compare once.
if $video; then compare=true; fi
compare_argument=()
if $compare && ! $video; then compare_argument=(--compare); fi

# say TITLE [TEXT]: a step's title (bold on a terminal, never with NO_COLOR) and what it shows.
bold=$'\033[1m' plain=$'\033[0m'
[[ -t 1 && -z ${NO_COLOR:-} ]] || bold='' plain=''
say() {
  printf '\n%s== %s%s\n' "$bold" "$1" "$plain"
  # The text as one paragraph, wrapped at 96 columns (its source lines are not the screen's).
  [[ -z ${2:-} ]] || tr '\n' ' ' <<<"$2" | fold -s -w 96
  echo
}

# The release build: a first one takes minutes (about 4 on 2 cores); its progress is shown
# as it goes, and a failure shows the compiler's own last lines.
echo "demo: building headroom (release; a first build takes a few minutes)…" >&2
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
status=0
# progress: the build's latest "[n/m] …" line, at most one every 10 s, as it happens.
progress() {
  local line last=-10
  while IFS= read -r line; do
    [[ $line =~ ^\[[0-9]+/[0-9]+\] ]] || continue
    if ((SECONDS - last >= 10)); then
      echo "demo:   ${line:0:90}" >&2
      last=$SECONDS
    fi
  done
}
swift build -c release --product headroom 2>&1 | tee "$build_log" | progress || status=$?
if ((status != 0)); then
  echo "demo: the build failed (exit $status); its last lines:" >&2
  tail -n 30 "$build_log" >&2
  exit 1
fi
headroom="$(swift build -c release --show-bin-path)/headroom"

say "1. Will this configuration run? Two 4K60 cameras on a Jetson Orin NX" \
  "The session is priced before it is committed. It is over budget: two 3840x2160 cameras at
60 fps, each read out from the full sensor (x1.5) and feeding full-rate outputs, ask the
imaging pipeline for about 3.2 billion pixels a second, more than twice the 1.5 billion the
profile says it sustains (pixelRate is the limiting budget; memory and ports would fit)."
"$headroom" estimate examples/sessions/dual-4k60.json || true

say "2. The planner's closest configuration that fits" \
  "It trades what costs least to give up — here frame rate — until the cost is at most 1."
"$headroom" plan examples/sessions/dual-4k60.json || true

if $video; then
  say "3. Real video, the neural detector, the governor on against off (--video)" \
    "OpenCV's vtest.avi (795 frames of people walking, 10 fps) through the neural person
detector and the tracker, on virtual time: the video plays frame by frame at its own rate, the
room heats up as the thermal-ramp scenario says, and the thermal model is heated by the
pipeline's modelled work at its current settings, so the governor's cuts cool it. The tracks
are scored against the video's published ground truth (PETS 2009 S2L1, 19 people). The same run
on any machine; then again with the governor off."
  "$headroom" run --clock virtual --source /usr/share/doc/opencv-doc/examples/data/vtest.avi \
    --gt Tests/Fixtures/people/PETS09-S2L1-gt.txt \
    --scenario thermal-ramp --compare --out runs/demo "${run_arguments[@]}"
elif $live; then
  say "3. The main job on this host (--live)" \
    "Pressure comes from this machine's sensors, or — without any — from a thermal model heated
by the pipeline's modelled work at its current settings (labelled SIMULATED). The governor lowers frame rate and inference
load as the level rises and restores them as it eases."
  "$headroom" run --scenario thermal-ramp --out runs/demo "${compare_argument[@]}" \
    "${run_arguments[@]}"
else
  say "3. The main job on a recorded thermal ramp (deterministic)" \
    "Pressure is replayed in time from examples/traces/thermal-ramp.jsonl (72 s of a room
heating up, recorded with the governor off) through the real classifier and governor; the governor follows
pressure only, not this machine's speed, so the levels and its changes are the same on any
machine. The recorded temperatures do not answer the governor's changes (they are a
recording); \`scripts/demo.sh --live\` closes the loop."
  "$headroom" run --scenario thermal-ramp --trace examples/traces/thermal-ramp.jsonl \
    --governor pressure-only --out runs/demo "${compare_argument[@]}" "${run_arguments[@]}"
fi

# What it left: `headroom run --compare` (--video, --compare) writes the governor-on run into
# governor-on/ and the governor-off run into governor-off/ under --out, nothing into --out
# itself, so a run.html there is an earlier demo's and is not the one to open.
if $compare; then
  left="runs/demo/governor-on/ and runs/demo/governor-off/, one for each run: open run.html in
each (launch waterfall, pressure and temperature with the governor's changes, frame rate and
stride, quality); beside it run.md, run.json, launch.trace.json (open in ui.perfetto.dev) and
launch.md. Both runs are in the history too"
else
  left="runs/demo/run.html (launch waterfall, pressure and temperature with the governor's
changes, frame rate and stride, quality), run.md, run.json, launch.trace.json (open in
ui.perfetto.dev) and launch.md; the run is in the history too"
fi
say "4. What it left" \
  "$left (\`headroom launch history\`). The README's other
commands call \`headroom\`: this build is $headroom (\`export PATH=$(dirname "$headroom"):\$PATH\`),
or install the package (README, Install)."
