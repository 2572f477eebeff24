#!/usr/bin/env bash
# Milliseconds a frame of the main job's neural person detector at each rung of its ladder
# (three regions a frame, each at 300 × 300, expecting the people the frame before found, as
# the tracker would; the whole frame at 300 × 300 and at 320 × 240; stride divides a rung's
# work), by the clock and in CPU time (every thread's), against OpenCV's DNN alone at the same
# input in the same run (Debian's python3-opencv: the luma in three channels, blobFromImage and
# forward, nothing else; a region rung's calls a frame times one call at 300 × 300), and
# against HOG as the main job runs it (frame × 1.25), on the same frames with OpenCV's default
# threads for all three. Rounds alternate the order; each figure is the best round's mean (a
# region rung's frames differ: some look at the whole frame too). Release build of
# headroom-bench.
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

ours() { "$bench" motion "$work/frames.raw" 768 576 --detector person-ssd --scale 1 --scale 0.8 --regions 3 --json >"$work/ours-$round.json"; }
hog() { "$bench" motion "$work/frames.raw" 768 576 --detector hog --scale 1 --json >"$work/hog-$round.json"; }
opencv() { /usr/bin/python3 scripts/bench_person_opencv.py "$work/frames.raw" 768 576 >"$work/opencv-$round.json"; }
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then ours; opencv; hog; else hog; opencv; ours; fi
done

/usr/bin/python3 - "$work" "$rounds" "$frames" <<'PY'
import json, sys
work, rounds, frames = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def best(kind, name, field="meanMilliseconds"):
    values = []
    for round in range(1, rounds + 1):
        rows = json.load(open(f"{work}/{kind}-{round}.json"))["rows"]
        values += [r[field] for r in rows if r["name"] == name]
    return min(values)
hog = best("hog", "hog scale 1.0")
calls = best("ours", "personSSD 3 regions", "networkCallsPerFrame")
print(f"{frames} frames of vtest.avi (768×576), OpenCV's default threads, best of {rounds} rounds' means")
print("rung                         calls/frame  ours ms  ours CPU ms  OpenCV alone ms  CPU ms  ours/alone  CPU  ours/HOG")
for rung, name, size, stride in (
    ("3 regions", "personSSD 3 regions", "300x300", 1),
    ("3 regions, stride 2", "personSSD 3 regions", "300x300", 2),
    ("whole frame 300 × 300", "personSSD scale 1.0", "300x300", 1),
    ("whole frame 320 × 240", "personSSD scale 0.8", "320x240", 1),
    ("320 × 240, stride 2", "personSSD scale 0.8", "320x240", 2),
    ("320 × 240, stride 3", "personSSD scale 0.8", "320x240", 3),
):
    looks = (calls if "regions" in rung else 1) / stride
    ours = best("ours", name) / stride
    ours_cpu = best("ours", name, "cpuMilliseconds") / stride
    alone = best("opencv", size) * looks
    alone_cpu = best("opencv", size, "cpuMilliseconds") * looks
    print(f"{rung:<29}{looks:11.2f}{ours:9.1f}{ours_cpu:13.1f}{alone:17.1f}{alone_cpu:8.1f}"
          f"{ours / alone:11.2f}×{ours_cpu / alone_cpu:6.2f}×{ours / hog:9.2f}×")
print(f"HOG as the main job runs it: {hog:.1f} ms")
PY
