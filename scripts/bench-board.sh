#!/usr/bin/env bash
# The sampling thread of headroomd (release) on a board's tree — Tests/Boards/BOARD, its
# temperatures moving 0.1 °C a second as a real sensor's do — at 10 Hz, against the floor in
# the same window: scripts/wake-floor.c, a thread waking at the same rate to pread the same
# files (the ones headroomd holds open). Each round prints both CPU times a wake and the ratio.
# With BASELINE_HEADROOMD=PATH (another build's headroomd, say the last commit's) that one runs
# too, on its own copy of the tree, in the same window: the two builds compared like with like.
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
baseline=${BASELINE_HEADROOMD:-}
[[ -z $baseline || -x $baseline ]] || { echo "bench-board: BASELINE_HEADROOMD: expected an executable headroomd, got $baseline" >&2; exit 2; }
source scripts/env.sh
swift build -c release --product headroomd 2>&1 | tail -n 1
headroomd="$(swift build -c release --show-bin-path)/headroomd"

# shellcheck source=scripts/scratch.sh
source scripts/scratch.sh
cc -O2 -Wall -Wextra -Werror -o "$work/wake-floor" scripts/wake-floor.c
cp -r "Tests/Boards/$board" "$work/board"
root=$work/board/sys
trees=("$work/board/sys")
if [[ -n $baseline ]]; then
  cp -r "Tests/Boards/$board" "$work/baseline-board"
  trees+=("$work/baseline-board/sys")
fi
mapfile -t temperatures < <(find "${trees[@]}" -type f \( -path '*/thermal_zone*/temp' -o -name 'temp*_input' \))
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

# Starts BINARY on TREE (in this shell, so that scratch.sh stops it); sets started_sampler to
# its sampling thread's /proc directory and started_daemon to its pid.
start_daemon() {
  local binary=$1 tree=$2 name=$3 daemon task sampler=
  HEADROOM_SYSFS_ROOT=$tree "$binary" --listen 127.0.0.1:0 --interval 0.1 \
    --config "$work/every-sample.json" >"$work/$name.out" 2>"$work/$name.err" &
  daemon=$!
  pids+=("$daemon")
  for _ in $(seq 300); do grep -q "serving on" "$work/$name.out" && break; sleep 0.1; done
  grep -q "serving on" "$work/$name.out" || { echo "bench-board: $name did not serve: $(cat "$work/$name.err")" >&2; exit 1; }
  for task in /proc/"$daemon"/task/*; do
    [[ $(cat "$task/comm") == headroom-pressu* ]] && sampler=$task
  done
  [[ -n $sampler ]] || { echo "bench-board: no headroom-pressure thread in $name" >&2; exit 1; }
  started_sampler=$sampler
  started_daemon=$daemon
}
start_daemon "$headroomd" "$root" headroomd
sampler=$started_sampler
daemon=$started_daemon
baseline_sampler=
if [[ -n $baseline ]]; then
  start_daemon "$baseline" "$work/baseline-board/sys" baseline
  baseline_sampler=$started_sampler
fi
mapfile -t files < <(for fd in /proc/"$daemon"/fd/*; do readlink "$fd"; done | grep -E "^($root/|/proc/pressure/)" | sort -u)
echo "bench-board: $board, headroomd's sampler at 10 Hz reading ${#files[@]} files (${files[*]#"$root/"}); $seconds s a round${baseline:+; the baseline $baseline beside it}"
oncpu() { if [[ -n $1 ]]; then cut -d' ' -f1 "$1/schedstat"; else echo 0; fi; }
for round in $(seq "$rounds"); do
  before=$(oncpu "$sampler")
  baseline_before=$(oncpu "$baseline_sampler")
  started=$(date +%s%N)
  floor=$("$work/wake-floor" "$seconds" "${files[@]}")
  after=$(oncpu "$sampler")
  baseline_after=$(oncpu "$baseline_sampler")
  ended=$(date +%s%N)
  python3 - "$round" "$before" "$after" "$baseline_before" "$baseline_after" "$started" "$ended" "$floor" "${baseline:+1}" <<'PY'
import sys
round = sys.argv[1]
before, after, baseline_before, baseline_after, started, ended, floor = map(float, sys.argv[2:9])
wakes = (ended - started) / 1e8
daemon = (after - before) / 1e3 / wakes
line = f"round {round}: headroomd {daemon:.1f} µs a wake, the floor {floor:.1f} µs: {daemon / floor:.2f}×"
if sys.argv[9]:
    baseline = (baseline_after - baseline_before) / 1e3 / wakes
    line += f"; the baseline {baseline:.1f} µs: {baseline / floor:.2f}× (headroomd {daemon / baseline:.2f}× the baseline)"
print(line)
PY
done
