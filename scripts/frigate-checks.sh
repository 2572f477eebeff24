#!/usr/bin/env bash
# `serve --frigate FILE` against a fake Frigate on a real mosquitto on 127.0.0.1: the fake
# (mosquitto_sub and mosquitto_pub, as Frigate's MQTT API is documented) echoes every
# `…/set` to its `…/state`, says `online` on frigate/available and publishes frigate/stats
# every second. A replayed trace heats the host to shutdown and cools it again: Headroom must
# step Frigate down its profiles, pause detection on every camera, then restore it, in that
# order, with the governor's hysteresis, and hand back `none` when it stops.
# Usage: scripts/frigate-checks.sh PATH-TO-headroom
set -euo pipefail
headroom=${1:?usage: scripts/frigate-checks.sh PATH-TO-headroom}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name=frigate-checks
# shellcheck source=scripts/mosquitto-broker.sh
source scripts/mosquitto-broker.sh
start_broker

# The fake Frigate.
mosquitto_pub -p "$port" -r -t frigate/available -m online
started=$(date +%s%N)
# Both files exist before anything reads them (a background redirection opens its file later).
: >"$work/sets"
: >"$work/frigate.log"
mosquitto_sub -p "$port" -v -t frigate/profile/set -t 'frigate/+/detect/set' \
  -t headroom-checks/probe >"$work/sets" &
pids+=($!)
# Ends with this script (tail --pid), so no process outlives it.
tail -n +1 -f --pid=$$ "$work/sets" | while read -r topic payload; do
  [[ $topic == headroom-checks/probe ]] && continue
  elapsed=$((($(date +%s%N) - started) / 100000000))
  printf '%d.%d s %s %s\n' $((elapsed / 10)) $((elapsed % 10)) "$topic" "$payload" >>"$work/frigate.log"
  mosquitto_pub -p "$port" -r -t "${topic%/set}/state" -m "$payload" 2>/dev/null || true
done &
stats='{"cameras": {"front_door": {"camera_fps": 5.0, "process_fps": 5.0, "skipped_fps": 0.0, "detection_fps": 1.5}, "yard": {"camera_fps": 5.0, "process_fps": 4.8, "skipped_fps": 0.2, "detection_fps": 0.5}}, "detectors": {"cpu1": {"inference_speed": 42.5, "detection_start": 0.0, "pid": 4242}}}'
while true; do mosquitto_pub -p "$port" -t frigate/stats -m "$stats"; sleep 1; done &
pids+=($!)
# The fake has subscribed once a probe reaches it (serve's first `none` is not retained).
for _ in $(seq 100); do
  grep -q "^headroom-checks/probe" "$work/sets" && break
  mosquitto_pub -p "$port" -t headroom-checks/probe -m ready
  sleep 0.1
done
grep -q "^headroom-checks/probe" "$work/sets" || fail "the fake Frigate did not subscribe within 10 s"

# A host heating to shutdown and cooling again, in the replay format.
python3 - examples/traces/thermal-ramp.jsonl >"$work/hot-and-back.jsonl" <<'PY'
import json, sys
template = json.loads(open(sys.argv[1]).readline())
def celsius(t):
    if t < 12: return 70 + 30 * t / 12          # up to 100 °C
    if t < 18: return 100
    if t < 28: return 100 - 50 * (t - 18) / 10  # down to 50 °C
    return 50
for step in range(0, 2 * 45):
    t = step / 2
    sample = json.loads(json.dumps(template))
    sample["time"] = t
    sample["sensors"][0]["celsius"] = round(celsius(t), 2)
    print(json.dumps(sample))
PY

cat >"$work/frigate.json" <<'JSON'
{"cameras": ["front_door", "yard"], "priority": 3, "detectFrameRate": 5,
 "ladder": [{"name": "none", "cost": 100}, {"name": "reduced", "cost": 55},
            {"name": "minimal", "cost": 25}]}
JSON
"$headroom" serve --listen 127.0.0.1:0 --interval 0.5 --trace "$work/hot-and-back.jsonl" \
  --mqtt "mqtt://127.0.0.1:$port" --frigate "$work/frigate.json" >"$work/serve.out" 2>"$work/serve.err" \
  || fail "serve --frigate: exit $? ($(cat "$work/serve.err"))"
# The hand-back on stop (`none`, then detection on for both cameras) reaches the fake
# Frigate's log last, through its echo pipeline: wait for it, not for the restore before it
# (about 31 s, also `none` and two ONs), which is there already.
handed_back() {
  awk '$4 == "OFF" { off = $1; first = ""; ons = 0; next }
       off != "" && $3 == "frigate/profile/set" && $4 == "none" {
         if (first == "") first = $1
         if ($1 - first >= 8) { handed = 1; ons = 0 }
         next }
       handed && $4 == "ON" { ons++ }
       END { exit !(handed && ons >= 2) }' "$work/frigate.log"
}
for _ in $(seq 100); do
  handed_back && break
  sleep 0.1
done

# What the fake Frigate was told, in order, with times.
echo "what Frigate was told (seconds since it started):"
sed 's/^/  /' "$work/frigate.log"
python3 - "$work/frigate.log" <<'PY' || fail "the profile sequence, the pause or the restore is not as it should be"
import sys
events = [line.split()[2:] for line in open(sys.argv[1])]
told = [payload for topic, payload in events if topic == "frigate/profile/set"]
# A setting sent again (the connection made, then Frigate saying online) is one step.
profiles = [p for i, p in enumerate(told) if i == 0 or told[i - 1] != p]
detect = [(topic.split("/")[1], payload) for topic, payload in events if topic.endswith("/detect/set")]
# Down the ladder in order, never skipping back up before the pause.
assert profiles[:3] == ["none", "reduced", "minimal"], profiles
# Paused: detection off on both cameras, after the lightest profile.
off = [index for index, (_, payload) in enumerate(detect) if payload == "OFF"]
assert {detect[i][0] for i in off} == {"front_door", "yard"}, detect
# Restored: detection on again on both cameras after the pause, and Frigate's own profile.
after = detect[max(off) + 1:]
assert {camera for camera, payload in after if payload == "ON"} == {"front_door", "yard"}, after
assert profiles[-1] == "none" and events[-1][1] in ("ON", "none"), events[-3:]
# Handed back on stop, when the trace ended (45 s), apart from the restore when it cooled
# (about 31 s): Frigate's own profile sent again well after the restore.
lines = [line.split() for line in open(sys.argv[1])]
last_off = max(float(fields[0]) for fields in lines if fields[3] == "OFF")
nones = [float(fields[0]) for fields in lines
         if fields[2] == "frigate/profile/set" and fields[3] == "none" and float(fields[0]) > last_off]
assert nones and nones[-1] - nones[0] >= 8, ("no hand-back on stop after the restore", nones)
print("profiles %s; detection off on %d cameras, then on again" % (" → ".join(profiles), len(off)))
PY
grep -q "frigate: profile minimal, detection off" "$work/serve.err" \
  || fail "serve did not say it paused Frigate: $(grep frigate "$work/serve.err")"
echo "frigate checks passed"
