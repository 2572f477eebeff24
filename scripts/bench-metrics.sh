#!/usr/bin/env bash
# The host daemon beside the daemon it sits beside: headroomd (what `headroom serve` becomes,
# linked as the package links it: scripts/link-daemon.sh) and Debian's prometheus-node-exporter, started here on free loopback ports with the
# collectors that read what Headroom reads (hwmon, thermal_zone, pressure, cpufreq), measured
# in one run: resident memory idle, /metrics under load from a second process (wrk), resident
# memory after it; and the floor of resident memory, a Swift daemon that does nothing
# (scripts/resident-floor.swift, linked as headroomd is).
# Usage: scripts/bench-metrics.sh [SECONDS per wrk run, default 10] [CONNECTIONS, default 8]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
duration=${1:-10}
connections=${2:-8}
[[ $duration =~ ^[1-9][0-9]*$ ]] || { echo "bench-metrics: SECONDS: expected a whole number of seconds, got $duration" >&2; exit 2; }
[[ $connections =~ ^[1-9][0-9]*$ ]] || { echo "bench-metrics: CONNECTIONS: expected a whole number, got $connections" >&2; exit 2; }
source scripts/env.sh
for tool in wrk prometheus-node-exporter; do
  command -v "$tool" >/dev/null || { echo "bench-metrics: needs $tool (apt-get install $tool)" >&2; exit 2; }
done
swift build -c release --product headroomd 2>&1 | tail -n 1

# shellcheck source=scripts/scratch.sh
source scripts/scratch.sh
# The daemon as the package installs it: the runtime linked in.
headroomd=$work/headroomd
scripts/link-daemon.sh "$headroomd"

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
# resident PID: VmRSS in MB.
resident() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

swiftc -O -Xfrontend -disable-implicit-string-processing-module-import -static-stdlib -use-ld=lld \
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
  scripts/resident-floor.swift -o "$work/resident-floor"
"$work/resident-floor" >"$work/floor.out" 2>&1 &
floor_pid=$!
pids+=("$floor_pid")

headroom_port=$(free_port 19464)
"$headroomd" --listen "127.0.0.1:$headroom_port" --interval 1 >"$work/headroom.out" 2>&1 &
headroom_pid=$!
pids+=("$headroom_pid")
node_port=$(free_port 19100)
prometheus-node-exporter --web.listen-address="127.0.0.1:$node_port" --collector.disable-defaults \
  --collector.hwmon --collector.thermal_zone --collector.pressure --collector.cpufreq \
  >"$work/node.out" 2>&1 &
node_pid=$!
pids+=("$node_pid")
# With --mqtt: a third, publishing to a real mosquitto on loopback (when Debian's is here).
mqtt_pid=
if command -v mosquitto >/dev/null; then
  mqtt_port=$(free_port 19883)
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mqtt_port" >"$work/mosquitto.conf"
  mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
  pids+=($!)
  mqtt_headroom_port=$(free_port 19564)
  "$headroomd" --listen "127.0.0.1:$mqtt_headroom_port" --interval 1 \
    --mqtt "mqtt://127.0.0.1:$mqtt_port" >"$work/headroom-mqtt.out" 2>&1 &
  mqtt_pid=$!
  pids+=("$mqtt_pid")
  wait_for "http://127.0.0.1:$mqtt_headroom_port/metrics"
fi
wait_for "http://127.0.0.1:$headroom_port/metrics"
wait_for "http://127.0.0.1:$node_port/metrics"
# Idle: both have answered once, then sample for 5 s.
sleep 5
headroom_idle=$(resident "$headroom_pid")
node_idle=$(resident "$node_pid")
floor_idle=$(resident "$floor_pid")
[[ -n $mqtt_pid ]] && mqtt_idle=$(resident "$mqtt_pid")

# run NAME URL: wrk with latency percentiles; sets NAME_line.
run() {
  local bytes output rps p50 p99
  bytes=$(curl -sf "$2" | wc -c)
  output=$(wrk -t 1 -c "$connections" -d "${duration}s" --latency "$2")
  echo "$output" >"$work/$1.wrk"
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$output")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$output")
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
  printf -v "$1_line" '%12s %10s %10s %10s' "$rps" "$p50" "$p99" "$bytes"
}
run headroom "http://127.0.0.1:$headroom_port/metrics"
run node "http://127.0.0.1:$node_port/metrics"
headroom_loaded=$(resident "$headroom_pid")
node_loaded=$(resident "$node_pid")

echo "wrk -t 1 -c $connections -d ${duration}s --latency against each /metrics; VmRSS idle (5 s after the first answer) and after wrk"
printf '%-22s %12s %10s %10s %10s %10s %10s\n' "daemon" "requests/s" "p50" "p99" "body bytes" "idle MB" "loaded MB"
printf '%-22s %s %10s %10s\n' "headroomd" "$headroom_line" "$headroom_idle" "$headroom_loaded"
printf '%-22s %s %10s %10s\n' "node_exporter ($(prometheus-node-exporter --version 2>&1 | awk 'NR == 1 { print $3 }'))" "$node_line" "$node_idle" "$node_loaded"
printf '%-22s %43s %10s\n' "Swift floor" "(a daemon doing nothing, resident-floor.swift)" "$floor_idle"
if [[ -n $mqtt_pid ]]; then
  grep -q "connected" "$work/headroom-mqtt.out" || echo "bench-metrics: note: headroomd --mqtt did not say it connected: $(tail -n 2 "$work/headroom-mqtt.out")" >&2
  printf '%-22s %43s %10s\n' "headroomd --mqtt" "(idle, publishing to mosquitto)" "$mqtt_idle"
fi
