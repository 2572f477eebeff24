#!/usr/bin/env bash
# Dev benchmark, not part of scripts/test.sh: our MotionDetector against OpenCV's MOG2 background
# subtractor + 3x3 open + connected components, one thread each, on the same frames of a real
# video: OpenCV's own vtest.avi (Debian `opencv-doc`), decoded by ffmpeg to raw greyscale at its
# native size and at half size. Prints a table of ms/frame (p50, mean), ours/MOG2 and detections
# per frame (scripts/motion_vs_mog2.py says what is timed).
# Installs opencv-python-headless and numpy into a virtualenv (default .build/mog2-venv, or
# $MOG2_VENV) on first use, so the first run needs the network. Without python3, its venv/pip,
# ffmpeg or the video it says why on one line and exits 0 ("skipped").
# Usage: scripts/motion-vs-mog2.sh [--png DIR] [HEADROOM-BENCH-BINARY]
#   --png DIR  also writes DIR/motion-N.png for a few frames: our boxes beside MOG2's.
#   $MOTION_VIDEO  another video to use instead of vtest.avi.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
skip() {
  echo "motion-vs-mog2: skipped: $*"
  exit 0
}
draw=()
if [[ ${1:-} == --png ]]; then
  [[ -n ${2:-} ]] || { echo "usage: scripts/motion-vs-mog2.sh [--png DIR] [HEADROOM-BENCH]" >&2; exit 2; }
  draw=(--draw "$2")
  shift 2
fi
command -v python3 >/dev/null 2>&1 || skip "no python3 on PATH"
command -v ffmpeg >/dev/null 2>&1 || skip "no ffmpeg on PATH (apt-get install ffmpeg)"
command -v ffprobe >/dev/null 2>&1 || skip "no ffprobe on PATH (apt-get install ffmpeg)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
video=${MOTION_VIDEO:-}
if [[ -n $video && ! -f $video ]]; then
  skip "MOTION_VIDEO=$video is not a file"
fi
if [[ -z $video ]]; then
  examples=/usr/share/doc/opencv-doc/examples/data
  if [[ -f $examples/vtest.avi ]]; then
    video=$examples/vtest.avi
  elif [[ -f $examples/vtest.avi.gz ]]; then
    gzip -dc "$examples/vtest.avi.gz" >"$work/vtest.avi"
    video=$work/vtest.avi
  elif [[ -f $examples/vtest.avi.xz ]]; then
    xz -dc "$examples/vtest.avi.xz" >"$work/vtest.avi"
    video=$work/vtest.avi
  fi
fi
[[ -n $video && -f $video ]] ||
  skip "no vtest.avi in /usr/share/doc/opencv-doc/examples/data (apt-get install opencv-doc) and no \$MOTION_VIDEO"
venv=${MOG2_VENV:-.build/mog2-venv}
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import cv2, numpy' >/dev/null 2>&1; then
  mkdir -p "$(dirname "$venv")"
  log=$(mktemp)
  python3 -m venv "$venv" >"$log" 2>&1 || skip "python3 -m venv failed: $(tail -n 1 "$log") (log: $log)"
  "$venv/bin/pip" install --quiet --retries 1 --timeout 20 opencv-python-headless numpy >"$log" 2>&1 ||
    skip "pip could not install opencv-python-headless and numpy (no network?): $(tail -n 1 "$log") (log: $log)"
  rm -f "$log"
fi
bench=${1:-}
if [[ -z $bench ]]; then
  source scripts/env.sh
  flock /tmp/headroom-build.lock swift build -c release --product headroom-bench >/dev/null
  bench="$(swift build -c release --show-bin-path)/headroom-bench"
fi
size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x "$video")
width=${size%x*}
height=${size#*x}
half_width=$((width / 2 / 2 * 2))
half_height=$((height / 2 / 2 * 2))
ffmpeg -v error -nostdin -i "$video" -f rawvideo -pix_fmt gray "$work/full.gray"
ffmpeg -v error -nostdin -i "$video" -vf "scale=$half_width:$half_height" -f rawvideo \
  -pix_fmt gray "$work/half.gray"
"$venv/bin/python" scripts/motion_vs_mog2.py "${draw[@]}" "$bench" \
  "$work/full.gray" "$width" "$height" "$work/half.gray" "$half_width" "$half_height"
