#!/usr/bin/env bash
# The pressure benchmarks (release build), in two parts: first on this host's own sensors — a
# Raspberry Pi's, a Jetson's, or whatever this machine has — then on a fake hwmon tree of 24
# temperatures that a private mount namespace puts over /sys/class (needs root), so figures
# compare across machines. It starts by saying what the machine is. Runs unchanged on a
# Raspberry Pi or a Jetson; the README says how to send us the output.
# Usage: scripts/bench-pressure.sh [BENCHMARK-PREFIX ...]
#   (HEADROOM_BENCH_OBSERVER_SECONDS=N shortens the observer measurements, default 60 s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
swift build -c release --product headroom-bench 2>&1 | tail -n 1
bench=$(swift build -c release --show-bin-path)/headroom-bench

echo "== machine"
model=$({ tr -d '\0' </proc/device-tree/model || cat /sys/class/dmi/id/product_name || echo unknown; } 2>/dev/null)
echo "model: $model"
echo "kernel: $(uname -srm), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
for class in hwmon thermal devfreq; do
  echo "/sys/class/$class: $(ls /sys/class/$class 2>/dev/null | tr '\n' ' ')"
done
for hwmon in /sys/class/hwmon/hwmon*; do
  [[ -r $hwmon/name ]] && echo "  $(basename "$hwmon"): $(cat "$hwmon/name")"
done

echo "== this host's own sensors"
host=("$@")
((${#host[@]})) || host=(pressure.observer-10hz pressure.observer-adaptive pressure.sample-cold)
# A missed target is reported, and the fake-tree part still runs.
"$bench" "${host[@]}" || true

echo "== a fake hwmon tree of 24 temperatures (private mount namespace)"
if [[ $(id -u) -ne 0 ]] || ! unshare --mount --propagation private true 2>/dev/null; then
  echo "SKIPPED: needs root and unshare --mount"
  exit 0
fi
unshare --mount --propagation private bash -euo pipefail -c '
  mount -t tmpfs headroom-bench-hwmon /sys/class
  "$0" "$@"
' "$bench" "${@:-pressure.}"
