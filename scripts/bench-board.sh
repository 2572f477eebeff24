#!/usr/bin/env bash
# The sampling thread of headroomd (release) on a board's tree — Tests/Boards/BOARD, its
# temperatures moving 0.1 °C a second as a real sensor's do — at 10 Hz, against the floor in
# the same window: scripts/wake-floor.c, a thread waking at the same rate to pread the same
# files (the ones headroomd holds open). Each round prints both CPU times a wake and the ratio.
# Usage: scripts/bench-board.sh [BOARD, default raspberry-pi-4] [SECONDS, default 30] [ROUNDS, default 3]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
board=${1:-raspberry-pi-4}
seconds=${2:-30}
rounds=${3:-3}
boards=$(find Tests/Boards -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | paste -sd, - | sed 's/,/, /g')
[[ -d Tests/Boards/$board/sys ]] || { echo "bench-board: BOARD: expected one of $boards, got $board" >&2; exit 2; }
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "bench-board: SECONDS: expected a whole number of seconds, got $seconds" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench-board: ROUNDS: expected a whole number, got $rounds" >&2; exit 2; }
source scripts/env.sh
swift build -c release --product headroomd 2>&1 | tail -n 1
headroomd="$(swift build -c release --show-bin-path)/headroomd"

# shellcheck source=scripts/scratch.sh
source scripts/scratch.sh
cc -O2 -Wall -Wextra -Werror -o "$work/wake-floor" scripts/wake-floor.c
cp -r "Tests/Boards/$board" "$work/board"
root=$work/board/sys
mapfile -t temperatures < <(find "$root" -type f \( -path '*/thermal_zone*/temp' -o -name 'temp*_input' \))
# Each value overwrites the last in place (one write, no truncation a sample could see).
(
  step=0
  while true; do
    for file in "${temperatures[@]}"; do printf '%d\n' $((55000 + step % 50 * 100)) 1<>"$file"; done
    step=$((step + 1))
    sleep 1
  done
) &
pids+=($!)
echo '{"sampling": {"slowInterval": 0.1}}' >"$work/every-sample.json"
HEADROOM_SYSFS_ROOT=$root "$headroomd" --listen 127.0.0.1:0 --interval 0.1 \
  --config "$work/every-sample.json" >"$work/serve.out" 2>"$work/serve.err" &
daemon=$!
pids+=("$daemon")
for _ in $(seq 300); do grep -q "serving on" "$work/serve.out" && break; sleep 0.1; done
grep -q "serving on" "$work/serve.out" || { echo "bench-board: headroomd did not serve: $(cat "$work/serve.err")" >&2; exit 1; }
sampler=
for task in /proc/"$daemon"/task/*; do
  [[ $(cat "$task/comm") == headroom-pressu* ]] && sampler=$task
done
[[ -n $sampler ]] || { echo "bench-board: no headroom-pressure thread in headroomd" >&2; exit 1; }
mapfile -t files < <(for fd in /proc/"$daemon"/fd/*; do readlink "$fd"; done | grep -E "^($root/|/proc/pressure/)" | sort -u)
echo "bench-board: $board, headroomd's sampler at 10 Hz reading ${#files[@]} files (${files[*]#"$root/"}); $seconds s a round"
oncpu() { cut -d' ' -f1 "$sampler/schedstat"; }
for round in $(seq "$rounds"); do
  before=$(oncpu)
  started=$(date +%s%N)
  floor=$("$work/wake-floor" "$seconds" "${files[@]}")
  after=$(oncpu)
  ended=$(date +%s%N)
  python3 - "$round" "$before" "$after" "$started" "$ended" "$floor" <<'PY'
import sys
round, before, after, started, ended, floor = sys.argv[1], *map(float, sys.argv[2:])
wakes = (ended - started) / 1e8
daemon = (after - before) / 1e3 / wakes
print(f"round {round}: headroomd {daemon:.1f} µs a wake, the floor {floor:.1f} µs: {daemon / floor:.2f}×")
PY
done
