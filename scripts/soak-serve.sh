#!/usr/bin/env bash
# Dev measurement, not part of scripts/test.sh: does `headroomd` keep flat memory over a day's
# work? Runs it (release) at 10 Hz — a day of 1 s samples in 2.4 h — on a Raspberry Pi 4's tree
# whose temperature swings (so the level changes, events stream and MQTT publishes), with
# --mqtt to a real mosquitto and a load all along: /metrics and /v1/status scraped four times a
# second, 8 event-stream readers that hang up and come back every 30 s, a client registering
# every 2 s that reports once and lapses (--lease 5), and one that stays and reports every
# second. Prints VmRSS and the process's own memory (RssAnon) every EVERY minutes, and the
# change from the first reading to the last.
# Usage: scripts/soak-serve.sh [MINUTES, default 60] [EVERY, default 5]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes=${1:-60}
every=${2:-5}
[[ $minutes =~ ^[1-9][0-9]*$ ]] || { echo "soak-serve: MINUTES: expected a whole number, got $minutes" >&2; exit 2; }
[[ $every =~ ^[1-9][0-9]*$ ]] || { echo "soak-serve: EVERY: expected a whole number of minutes, got $every" >&2; exit 2; }
name=soak-serve
# shellcheck source=scripts/mosquitto-broker.sh
source scripts/mosquitto-broker.sh
start_broker
source scripts/env.sh
swift build -c release --product headroomd 2>&1 | tail -n 1
# A copy runs, so that a build meanwhile can replace the binary.
cp "$(swift build -c release --show-bin-path)/headroomd" "$work/headroomd"
headroomd=$work/headroomd

cp -r Tests/Boards/raspberry-pi-4 "$work/board"
zone=$work/board/sys/class/thermal/thermal_zone0/temp
# 50 → 75 °C and back every 20 s, far faster than a board heats: the level changes a few
# times a cycle, so the events kept for resuming readers fill up within the run, and what is
# published changes all along.
(
  step=0
  while true; do
    phase=$((step % 100))
    printf '%d\n' $((50000 + (phase < 50 ? phase : 100 - phase) * 500)) 1<>"$zone"
    step=$((step + 1))
    sleep 0.2
  done
) &
pids+=($!)
echo '{"sampling": {"slowInterval": 0.1}}' >"$work/every-sample.json"
HEADROOM_SYSFS_ROOT=$work/board/sys "$headroomd" --listen 127.0.0.1:0 --interval 0.1 --lease 5 \
  --config "$work/every-sample.json" --mqtt "mqtt://127.0.0.1:$port" >"$work/serve.out" 2>"$work/serve.err" &
daemon=$!
pids+=("$daemon")
for _ in $(seq 300); do grep -q "serving on" "$work/serve.out" && break; sleep 0.1; done
grep -q "serving on" "$work/serve.out" || fail "headroomd did not serve: $(cat "$work/serve.err")"
url=http://$(awk '{print $3}' "$work/serve.out")
ladder='{"name":"soak","priority":5,"nominalFrameRate":10,"minFrameRate":2,"ladder":[{"name":"full","cost":150},{"name":"small","cost":24}]}'
report='{"frames":10,"late":1,"dropped":0,"workSeconds":{"p50":0.05,"p95":0.08},"targetSeconds":0.1}'
register() { curl -s -X POST -d "$ladder" "$url/v1/clients" | jq -r .id; }

# The load.
while true; do curl -s -o /dev/null "$url/metrics"; curl -s -o /dev/null "$url/v1/status"; sleep 0.25; done &
pids+=($!)
for _ in $(seq 8); do
  while true; do curl -s -N -o /dev/null --max-time 30 "$url/v1/events" || true; done &
  pids+=($!)
done
while true; do
  id=$(register)
  curl -s -o /dev/null -X POST -d "$report" "$url/v1/clients/$id/report"
  sleep 2
done &
pids+=($!)
(
  id=$(register)
  while true; do
    curl -s -o /dev/null -X POST -d "$report" "$url/v1/clients/$id/report"
    sleep 1
  done
) &
pids+=($!)
mosquitto_sub -p "$port" -t 'headroom/#' -t 'homeassistant/#' >"$work/published" &
pids+=($!)

# megabytes FIELD: the field of /proc/PID/status in MB.
megabytes() { awk -v field="$1:" '$1 == field { printf "%.1f", $2 / 1024 }' "/proc/$daemon/status"; }
echo "soak-serve: headroomd at 10 Hz under load for $minutes min (pid $daemon, $url)"
first=
for ((elapsed = every; elapsed <= minutes; elapsed += every)); do
  # In the background, so that a signal stops the soak at once (bash acts on it after `wait`).
  sleep $((every * 60)) &
  pids+=($!)
  wait $!
  kill -0 "$daemon" 2>/dev/null || fail "headroomd ended: $(tail -n 3 "$work/serve.err")"
  own=$(megabytes RssAnon)
  first=${first:-$own}
  echo "  $elapsed min: VmRSS $(megabytes VmRSS) MB, its own (RssAnon) $own MB; $(wc -l <"$work/published") messages published"
done
echo "soak-serve: RssAnon $first → $own MB from minute $every to minute $minutes ($((minutes * 600)) samples in all)"
