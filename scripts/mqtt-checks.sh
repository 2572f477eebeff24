#!/usr/bin/env bash
# `serve --mqtt` against a real mosquitto on 127.0.0.1 started here, watched with
# mosquitto_sub as Home Assistant would: the retained discovery payload (its keys checked
# against Home Assistant's documented ones), the level going to critical under a replayed
# ramp, `online` again after Home Assistant's status says `online`, the broker stopped for 30 s
# and restarted (the API answers throughout, the state resumes, memory stays flat), and
# `offline` from the last will after `kill -9`; libmosquitto mapped only with --mqtt, and a
# clear refusal where it cannot be opened.
# Usage: scripts/mqtt-checks.sh PATH-TO-headroom
set -euo pipefail
headroom=${1:?usage: scripts/mqtt-checks.sh PATH-TO-headroom}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name=mqtt-checks
# shellcheck source=scripts/mosquitto-broker.sh
source scripts/mosquitto-broker.sh
url=mqtt://127.0.0.1:$port

# subscribe NAME TOPIC: records every message on TOPIC as "TOPIC PAYLOAD" lines in NAME.
subscribe() {
  mosquitto_sub -p "$port" -v -t "$2" >"$work/$1" 2>/dev/null &
  pids+=($!)
}

# wait_for FILE PATTERN [SECONDS]: waits for an extended regular expression to match in FILE.
wait_for() {
  local tenths=$((${3:-30} * 10))
  for _ in $(seq "$tenths"); do
    grep -qE -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "\"$2\" never appeared in $1 within ${3:-30} s"
}

start_broker

# 1. A replayed ramp: discovery, the state going to critical, `offline` when it stops.
tail -n 40 examples/traces/thermal-ramp.jsonl >"$work/hot.jsonl"
subscribe ramp '#'
"$headroom" serve --listen 127.0.0.1:0 --interval 1 --trace "$work/hot.jsonl" --mqtt "$url" \
  --mqtt-node ramp >"$work/ramp.out" 2>"$work/ramp.err" \
  || fail "serve --trace --mqtt: exit $? ($(cat "$work/ramp.err"))"
wait_for "$work/ramp" '^headroom/ramp/availability offline$' 10
grep -qE '^headroom/ramp/state .*"level":"critical"' "$work/ramp" \
  || fail "the state never said critical: $(grep state "$work/ramp" | tail -n 3)"
levels=$(grep -oE '^headroom/ramp/state .*"level":"[a-z]+"' "$work/ramp" \
  | sed -E 's/.*"level":"([a-z]+)"/\1/' | uniq | paste -sd' ')
echo "levels published under the ramp: $levels"

# The retained discovery payload, as Home Assistant gets it when it starts later.
timeout 5 mosquitto_sub -p "$port" -t homeassistant/device/ramp/config -C 1 >"$work/discovery.json" \
  || fail "no retained discovery payload"
python3 - "$work/discovery.json" <<'PY' || fail "the discovery payload does not follow Home Assistant's documented keys"
import json, sys
payload = json.load(open(sys.argv[1]))
assert set(payload) == {"dev", "o", "availability_topic", "cmps"}, set(payload)
assert payload["dev"]["identifiers"] == ["ramp"] and payload["dev"]["name"].endswith("(Headroom)")
assert payload["o"]["name"] == "headroom" and payload["o"]["sw_version"]
documented = {"p", "name", "unique_id", "state_topic", "value_template", "device_class",
              "state_class", "unit_of_measurement", "options", "suggested_display_precision",
              "expire_after", "json_attributes_topic", "json_attributes_template", "icon"}
classes = {"sensor": {None, "enum", "temperature", "power"}, "binary_sensor": {"heat", "problem"}}
for key, component in payload["cmps"].items():
    assert set(component) <= documented, (key, set(component) - documented)
    assert component["p"] in classes and component.get("device_class") in classes[component["p"]], key
    assert component["unique_id"] == "ramp_" + key, key
    assert component["state_topic"].startswith("headroom/ramp/"), key
for key in ("level", "throttled", "temperature", "headroom", "headroom_forecast", "sustainable"):
    assert key in payload["cmps"], key
assert payload["cmps"]["level"]["options"] == ["nominal", "fair", "serious", "critical", "shutdown"]
print("discovery: %d entities, keys as documented" % len(payload["cmps"]))
PY

# 2. A long-running serve: Home Assistant's restart, a broker outage, a crash.
subscribe live '#'
"$headroom" serve --listen 127.0.0.1:0 --interval 1 --model --mqtt "$url" --mqtt-node live \
  --mqtt-heartbeat 5 >"$work/live.out" 2>"$work/live.err" &
serve=$!
pids+=("$serve")
wait_for "$work/live.out" "serving on" 10
address=$(sed -nE 's/^serving on ([^ ]+) .*/\1/p' "$work/live.out")
wait_for "$work/live" '^headroom/live/state ' 10
discoveries=$(grep -c '^homeassistant/device/live/config ' "$work/live")
mosquitto_pub -p "$port" -t homeassistant/status -m online
for _ in $(seq 100); do
  (($(grep -c '^homeassistant/device/live/config ' "$work/live") > discoveries)) && break
  sleep 0.1
done
(($(grep -c '^homeassistant/device/live/config ' "$work/live") > discoveries)) \
  || fail "discovery was not sent again after homeassistant/status online"
echo "discovery sent again after homeassistant/status online"

rss() { awk '/^VmRSS/ {print $2}' "/proc/$serve/status"; }
before=$(rss)
kill "$broker"
wait "$broker" 2>/dev/null || true
answered=0
for second in $(seq 30); do
  curl -sf --max-time 2 "http://$address/v1/pressure" >/dev/null \
    || fail "/v1/pressure did not answer $second s into the broker's outage"
  answered=$((answered + 1))
  sleep 1
done
echo "/v1/pressure answered $answered times while the broker was down for 30 s"
start_broker
subscribe resumed 'headroom/live/state'
# libmosquitto retries with a growing delay (at most 30 s): the state is back within 45 s.
wait_for "$work/resumed" '^headroom/live/state ' 45
after=$(rss)
echo "serve's resident memory: ${before} kB before the outage, ${after} kB after it"
((after - before < 4096)) || fail "memory grew by $((after - before)) kB across the outage"
grep -q "connection lost" "$work/live.err" || fail "serve did not say the connection was lost"

subscribe will 'headroom/live/availability'
wait_for "$work/will" '^headroom/live/availability online$' 10
kill -9 "$serve"
wait "$serve" 2>/dev/null || true
wait_for "$work/will" '^headroom/live/availability offline$' 10
echo "kill -9: the broker published the last will, offline"

# 3. libmosquitto is opened by the first connection, not linked: serve without --mqtt maps
# neither it nor OpenSSL; where it cannot be opened, --mqtt is refused and says why.
"$headroom" serve --listen 127.0.0.1:0 --interval 1 >"$work/plain.out" 2>"$work/plain.err" &
plain=$!
pids+=("$plain")
wait_for "$work/plain.out" "serving on" 10
if grep -E -q "libmosquitto|libssl|libcrypto" "/proc/$plain/maps"; then
  fail "serve without --mqtt maps libmosquitto or OpenSSL"
fi
kill "$plain"
wait "$plain" 2>/dev/null || true
library=$(ldconfig -p | awk '$1 == "libmosquitto.so.1" && !found { print $NF; found = 1 }')
if unshare --mount true 2>/dev/null; then
  status=0
  unshare --mount sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$library" \
    "$headroom" serve --listen 127.0.0.1:0 --mqtt "$url" >/dev/null 2>"$work/unloaded.err" || status=$?
  [[ $status == 2 ]] || fail "--mqtt without libmosquitto: exit $status, expected 2"
  grep -q -- "--mqtt: libmosquitto cannot be loaded: .*(Debian's libmosquitto1)" "$work/unloaded.err" \
    || fail "--mqtt without libmosquitto said: $(cat "$work/unloaded.err")"
  echo "without libmosquitto: $(cat "$work/unloaded.err")"
else
  echo "without libmosquitto: not checked (unshare --mount is not allowed here)"
fi
echo "mqtt checks passed"
