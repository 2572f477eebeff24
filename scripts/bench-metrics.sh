#!/usr/bin/env bash
# /metrics under load from a second process (wrk) on loopback: `headroom serve` side by side
# with Debian's prometheus-node-exporter serving its own /metrics on the same machine.
# Usage: scripts/bench-metrics.sh [SECONDS per run, default 10] [CONNECTIONS, default 16]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
duration=${1:-10}
connections=${2:-16}
scripts/setup.sh
source scripts/env.sh
for tool in wrk prometheus-node-exporter; do
  command -v "$tool" >/dev/null || { echo "bench-metrics: needs $tool (apt-get install $tool)" >&2; exit 2; }
done
swift build -c release --product headroom 2>&1 | tail -n 1
headroom="$(swift build -c release --show-bin-path)/headroom"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  local port
  for port in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "bench-metrics: no free port from $1" >&2; exit 1
}
wait_for() {
  for _ in $(seq 100); do curl -sf "$1" >/dev/null && return; sleep 0.1; done
  echo "bench-metrics: $1 did not answer" >&2; exit 1
}

headroom_port=$(free_port 19464)
"$headroom" serve --listen "127.0.0.1:$headroom_port" --interval 1 >"$work/headroom.out" 2>&1 &
pids+=($!)
node_port=$(free_port 19100)
prometheus-node-exporter --web.listen-address="127.0.0.1:$node_port" >"$work/node.out" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$headroom_port/metrics"
wait_for "http://127.0.0.1:$node_port/metrics"

# run NAME URL: wrk with latency percentiles; prints "requests/s p50 p99 bytes".
run() {
  local bytes output rps p50 p99
  bytes=$(curl -sf "$2" | wc -c)
  wrk -t 2 -c "$connections" -d "${duration}s" "$2" >/dev/null  # warm-up, discarded
  output=$(wrk -t 2 -c "$connections" -d "${duration}s" --latency "$2")
  echo "$output" >"$work/$1.wrk"
  rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$output")
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
  printf '%-26s %12s %10s %10s %10s\n' "$1" "$rps" "$p50" "$p99" "$bytes"
  eval "${1//[^a-z]/_}_rps=$rps"
}

echo "wrk -t 2 -c $connections -d ${duration}s --latency, after a warm-up run of the same length"
printf '%-26s %12s %10s %10s %10s\n' "endpoint" "requests/s" "p50" "p99" "body bytes"
run headroom "http://127.0.0.1:$headroom_port/metrics"
run node_exporter "http://127.0.0.1:$node_port/metrics"
awk -v a="$headroom_rps" -v b="$node_exporter_rps" \
  'BEGIN { printf "headroom / node_exporter throughput: %.1fx\n", a / b }'
