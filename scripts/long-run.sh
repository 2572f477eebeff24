#!/usr/bin/env bash
# Dev measurement, not part of scripts/test.sh: does a long run keep flat memory and flat work
# per frame? Runs `headroom run --pace max` on 10^4, 10^5 and 10^6 frames (or the counts given)
# of two inputs and prints, per run, the peak RSS and the CPU per frame:
#   video  ffmpeg's testsrc2 (320x180) piped as YUV4MPEG2, the motion detector, no ground truth
#   scene  the synthetic scene rendered by `headroom scene` (160x90 at 240 fps, 6 people) and
#          played back with its gt.txt, the blob detector: tracking figures on every frame (the
#          gt.txt file itself is held in memory: it grows with the frames, 50 bytes a record)
#   live   the scene itself, rendered by the run with its ground truth, on virtual time
#          (--clock virtual, a 320x180 stand camera at 30 fps, the governor on)
# Usage: scripts/long-run.sh HEADROOM-BINARY [FRAMES ...]   (scratch in $LONG_RUN_DIR or a temp dir;
# $LONG_RUN_INPUTS picks inputs, default "video scene live")
set -euo pipefail
headroom=$(realpath "${1:?usage: scripts/long-run.sh HEADROOM-BINARY [FRAMES ...]}")
shift
counts=("${@:-10000 100000 1000000}")
repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
read -r -a counts <<<"${counts[*]}"
work=${LONG_RUN_DIR:-$(mktemp -d)}
inputs=" ${LONG_RUN_INPUTS:-video scene live} "
mkdir -p "$work"
cd "$work"

# One measured run: peak RSS (MiB) and CPU µs per frame of the headroom process alone.
measure() {
  local label=$1 frames=$2
  shift 2
  /usr/bin/time -f '%M %U %S' -o "time.$label.$frames" "$headroom" run --json \
    --out "out.$label.$frames" --db history.db "$@" >"run.$label.$frames.json"
  python3 - "$label" "$frames" "time.$label.$frames" "run.$label.$frames.json" <<'EOF'
import json, sys
label, frames, timing, report = sys.argv[1:]
rss_kib, user, system = open(timing).read().split()[-3:]
run = json.load(open(report))
processed = run["framesProcessed"]
quality = run.get("quality") or {}
idf1 = f"{quality['idf1']:.3f}" if "idf1" in quality else "-"
print(f"| {label} | {int(frames):>9,} | {processed:>9,} | {int(rss_kib) / 1024:7.1f} |"
      f" {(float(user) + float(system)) / processed * 1e6:7.1f} | {idf1} |", flush=True)
EOF
}

echo "| input | frames | processed | peak RSS MiB | CPU µs/frame | IDF1 |"
echo "|---|---:|---:|---:|---:|---|"
for frames in "${counts[@]}"; do
  [[ $inputs == *" video "* ]] || break
  ffmpeg -loglevel error -f lavfi -i testsrc2=size=320x180:rate=30 -frames:v "$frames" \
    -f yuv4mpegpipe -pix_fmt yuv420p - |
    measure video "$frames" --source - --pace max --detector motion
done
for frames in "${counts[@]}"; do
  [[ $inputs == *" scene "* ]] || break
  scene="scene.$frames"
  if [[ ! -s $scene/scene.mkv ]]; then
    # At most an hour of scene (`scene --seconds` stops there): 864,000 frames.
    seconds=$(python3 -c "print(min(${frames} / 240, 3600))")
    "$headroom" scene "$scene" --seconds "$seconds" --fps 240 --size 160x90 --fixed \
      --video "$scene/scene.mkv" --json >/dev/null
  fi
  measure scene "$frames" --source "$scene/scene.mkv" --gt "$scene/gt.txt" --pace max \
    --detector blob
done
for frames in "${counts[@]}"; do
  [[ $inputs == *" live "* ]] || break
  # Frame 0 is at 0 s: N frames take (N - 1) / 30 s.
  seconds=$(python3 -c "print(max(1, (${frames} - 1) / 30))")
  measure live "$frames" --clock virtual --seconds "$seconds" \
    --session "$repository/examples/sessions/stand-320x180.json"
done
