# Sourced by the MQTT checks: a scratch directory, children killed on exit, and a real
# mosquitto on 127.0.0.1 and a free port. The sourcing script sets `name` (for messages) first.
# Gives: $work, $pids (children to kill; add yours), $port, $broker (mosquitto's pid),
# fail MESSAGE, start_broker (again after a stop, on the same port).
work=$(mktemp -d)
pids=()
broker=
cleanup() {
  for pid in "${pids[@]}" $broker; do
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
# Stopped by a signal, the script still cleans up (bash runs the EXIT trap only on exit).
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL $name: $*" >&2; exit 1; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/mosquitto.conf"

start_broker() {
  mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
  broker=$!
  for _ in $(seq 100); do
    mosquitto_pub -p "$port" -t probe -n 2>/dev/null && return 0
    sleep 0.1
  done
  fail "mosquitto did not start on port $port"
}
