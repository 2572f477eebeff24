#!/usr/bin/env bash
# How tracking quality holds up with run length (issue 16's table): the closed-loop scene at
# 960x540 and 30 fps, detector at full scale on every frame (what `headroom run` does with the
# governor off), seeds 1-5, for runs of 20, 60, 120 and 600 s; prints the mean IDF1, HOTA and
# MOTA and the summed identity switches per length as a Markdown table. Not part of
# scripts/test.sh: it takes about 20 minutes (release build; the 600 s runs are most of it).
# Usage: scripts/identity-over-time.sh [--scene two-tone|uniform] [LENGTH...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
style=two-tone
if [[ ${1:-} == --scene ]]; then style=$2; shift 2; fi
lengths=("$@")
((${#lengths[@]})) || lengths=(20 60 120 600)
swift build -c release --product headroom >/dev/null
headroom="$(swift build -c release --show-bin-path)/headroom"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "scene $style, 960x540 at 30 fps, blob detector at scale 1 on every frame, seeds 1-5"
echo
echo "| run length | IDF1 | HOTA | DetA | AssA | MOTA | IDsw | track ids |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for seconds in "${lengths[@]}"; do
  for seed in 1 2 3 4 5; do
    dir="$work/$seconds-$seed"
    "$headroom" scene "$dir" --seconds "$seconds" --seed "$seed" --size 960x540 --scale 1 \
      --scene "$style" >/dev/null
    "$headroom" evaluate "$dir/gt.txt" "$dir/tracks.txt" --json >"$dir/scores.json"
    cut -d, -f2 "$dir/tracks.txt" | sort -u | wc -l >"$dir/ids"
  done
  python3 - "$work" "$seconds" <<'PY'
import json, sys
work, seconds = sys.argv[1], sys.argv[2]
rows = [json.load(open(f"{work}/{seconds}-{seed}/scores.json")) for seed in range(1, 6)]
ids = [int(open(f"{work}/{seconds}-{seed}/ids").read()) for seed in range(1, 6)]
mean = lambda key: sum(row[key] for row in rows) / len(rows)
print(f"| {seconds} s | {mean('idf1'):.3f} | {mean('hota'):.3f} | {mean('detA'):.3f} | "
      f"{mean('assA'):.3f} | {mean('mota'):.3f} | {sum(row['idsw'] for row in rows)} | "
      f"{sum(ids) / len(ids):.0f} |")
PY
done
