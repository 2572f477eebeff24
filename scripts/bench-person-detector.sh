#!/usr/bin/env bash
# Milliseconds a frame of the main job's neural person detector at each rung of its ladder
# (input 300 × 300, then 320 × 240), against OpenCV's DNN alone at the same input in the same
# run (Debian's python3-opencv: the luma in three channels, blobFromImage and forward, nothing
# else), and against HOG as the main job runs it (frame × 1.25), on the same frames with
# OpenCV's default threads for all three. Rounds alternate the order; each figure is the best
# round's median. Release build of headroom-bench.
#
# Usage: scripts/bench-person-detector.sh [HEADROOM-BENCH] [--frames N] [--rounds R]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench=.build/release/headroom-bench
frames=100
rounds=2
while (($#)); do
  case $1 in
    --frames) frames=${2:?--frames: expected a number of frames}; shift 2 ;;
    --rounds) rounds=${2:?--rounds: expected a number of rounds}; shift 2 ;;
    *) bench=$1; shift ;;
  esac
done
[[ -x $bench ]] || { echo "bench-person-detector: no $bench (swift build -c release --product headroom-bench)" >&2; exit 2; }
video=/usr/share/doc/opencv-doc/examples/data/vtest.avi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -loglevel error -i "$video" -frames:v "$frames" -f rawvideo -pix_fmt gray "$work/frames.raw"

ours() { "$bench" motion "$work/frames.raw" 768 576 --detector person-ssd --scale 1 --scale 0.8 --json >"$work/ours-$round.json"; }
hog() { "$bench" motion "$work/frames.raw" 768 576 --detector hog --scale 1 --json >"$work/hog-$round.json"; }
opencv() { /usr/bin/python3 scripts/bench_person_opencv.py "$work/frames.raw" 768 576 >"$work/opencv-$round.json"; }
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then ours; opencv; hog; else hog; opencv; ours; fi
done

/usr/bin/python3 - "$work" "$rounds" "$frames" <<'PY'
import json, sys
work, rounds, frames = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def best(kind, name):
    values = []
    for round in range(1, rounds + 1):
        rows = json.load(open(f"{work}/{kind}-{round}.json"))["rows"]
        values += [r["p50Milliseconds"] for r in rows if r["name"] == name]
    return min(values)
hog = best("hog", "hog scale 1.0")
print(f"{frames} frames of vtest.avi (768×576), OpenCV's default threads, best of {rounds} rounds' medians")
print("rung           ours ms  OpenCV DNN alone ms  ours/alone  ours/HOG")
for rung, scale, size in (("300 × 300", "1.0", "300x300"), ("320 × 240", "0.8", "320x240")):
    ours = best("ours", f"personSSD scale {scale}")
    alone = best("opencv", size)
    print(f"{rung:<13}{ours:8.1f}{alone:21.1f}{ours / alone:12.2f}×{ours / hog:9.2f}×")
print(f"HOG as the main job runs it: {hog:.1f} ms")
PY
