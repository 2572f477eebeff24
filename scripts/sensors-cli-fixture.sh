#!/usr/bin/env bash
# The pressure commands against real libsensors on a fake hwmon tree. Run by
# scripts/sensors-fixture-test.sh inside a private mount namespace whose /sys/class is a tmpfs
# (so the host's real /sys is untouched). Usage: scripts/sensors-cli-fixture.sh HEADROOM
set -euo pipefail
headroom=${1:?usage: scripts/sensors-cli-fixture.sh PATH-TO-headroom}
if [[ $(stat -f -c %T /sys/class) != tmpfs ]]; then
  echo "sensors-cli-fixture: /sys/class is not a tmpfs; run scripts/sensors-fixture-test.sh" >&2
  exit 2
fi
work=$(mktemp -d)
watcher=
cleanup() {
  [[ -n $watcher ]] && kill "$watcher" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
hwmon=/sys/class/hwmon
rm -rf "${hwmon:?}" && mkdir -p "$hwmon"

# Quiet PSI so the temperature alone decides the level.
mkdir -p "$work/proc/pressure"
for resource in cpu memory io; do
  printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
    >"$work/proc/pressure/$resource"
done
export HEADROOM_PROCFS_ROOT=$work/proc

# check NAME PYTHON-EXPRESSION -- ARGS: runs headroom ARGS --json, evaluates the expression
# with the document bound to `d`.
check() {
  local name=$1 expression=$2
  shift 3
  "$headroom" "$@" --json >"$work/out.json" 2>"$work/err"
  if ! python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($expression) else 1)" \
    "$work/out.json"; then
    echo "FAIL $name: headroom $* --json:"; cat "$work/out.json" "$work/err"; exit 1
  fi
  echo "ok   $name"
}
celsius() { echo "$2" | awk '{printf "%d\n", $1 * 1000}' >"$hwmon/$1"; }

check "no hwmon: no thermal sensors, level from PSI" \
  'd["thermal"] == "none" and d["level"] == "nominal" and any("no thermal sensors" in n for n in d["notes"])' \
  -- status

mkdir -p "$hwmon/hwmon0"
echo coretemp >"$hwmon/hwmon0/name"
echo "Package id 0" >"$hwmon/hwmon0/temp1_label"
celsius hwmon0/temp1_input 45
celsius hwmon0/temp1_max 80
celsius hwmon0/temp1_crit 100
check "discovery, label and limits" \
  'd["sensors"][0] == {"id": "coretemp-virtual-0/temp1", "source": "libsensors", "label": "Package id 0", "celsius": 45, "high": 80, "critical": 100, "stale": False} and d["thermal"] == "measured" and not d["simulated"]' \
  -- sensors

for step in 69.9:nominal 70:fair 79.9:fair 80:serious 94.9:serious 95:critical 99.9:critical 100:shutdown 200:shutdown; do
  celsius hwmon0/temp1_input "${step%%:*}"
  check "${step%%:*} °C is ${step##*:}" \
    "d['level'] == '${step##*:}' and d['factors'][0]['kind'] == 'systemTemperature'" -- status
done

for bad in garbage 500000 -256000; do
  echo "$bad" >"$hwmon/hwmon0/temp1_input"
  check "$bad is stale, never 0 °C" \
    'd["sensors"][0]["stale"] and d["sensors"][0]["celsius"] is None and d["thermal"] == "stale" and d["level"] == "nominal"' \
    -- status
done

# Mid-run: heat the machine, add a chip, remove it, while `watch` runs.
celsius hwmon0/temp1_input 50
"$headroom" watch --json --interval 0.1 >"$work/watch.jsonl" 2>"$work/watch.err" &
watcher=$!
# wait_for SECONDS PYTHON-EXPRESSION: until a watch line satisfies the expression (`d` = line).
wait_for() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    if python3 -c "
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if $2: sys.exit(0)
sys.exit(1)" "$work/watch.jsonl" 2>/dev/null; then
      echo "ok   watch: $3"; return
    fi
    sleep 0.1
  done
  echo "FAIL watch: $3"; cat "$work/watch.jsonl" "$work/watch.err"; exit 1
}
wait_for 10 'd["level"] == "nominal"' "first reading"
celsius hwmon0/temp1_input 96
wait_for 10 'd["level"] == "critical"' "a step to 96 °C is critical"
mkdir -p "$hwmon/hwmon1"
echo nvme >"$hwmon/hwmon1/name"
celsius hwmon1/temp1_input 101
celsius hwmon1/temp1_crit 100
wait_for 15 'd["level"] == "shutdown" and d["factors"][0]["sensor"] == "nvme-virtual-0/temp1"' \
  "a chip that appears later is picked up"
rm -rf "$hwmon/hwmon1"
wait_for 15 'd["level"] == "critical" and any(s["id"] == "nvme-virtual-0/temp1" and s["stale"] and s["staleReason"] == "vanished" for s in d["sensors"])' \
  "a chip that vanishes turns stale"
kill "$watcher"
wait "$watcher" 2>/dev/null || true
watcher=

# A broken libsensors configuration: libsensors skips it; we say so, and sensors still work.
printf 'chip "coretemp-*\n' >"$work/broken.conf"
mount --bind "$work/broken.conf" /etc/sensors3.conf
status=0
"$headroom" sensors --json >"$work/out.json" 2>"$work/err" || status=$?
umount /etc/sensors3.conf
if [[ $status -ne 0 ]] || ! grep -q "libsensors configuration: /etc/sensors3.conf:1: No matching double quote" "$work/err" \
  || ! grep -q '"coretemp-virtual-0/temp1"' "$work/out.json"; then
  echo "FAIL broken sensors3.conf: exit $status"; cat "$work/err"; exit 1
fi
echo "ok   a broken sensors3.conf is reported and skipped"

# libsensors that cannot start (no sysfs at /sys): said clearly, PSI still gives a reading.
mount -t tmpfs headroom-no-sysfs /sys
check "sensors_init failure is reported, PSI still reads" \
  'd["thermal"] == "none" and any("libsensors unavailable: sensors_init failed: Kernel interface error" in n for n in d["notes"]) and d["level"] == "nominal"' \
  -- status
echo "sensors-cli-fixture: passed"
