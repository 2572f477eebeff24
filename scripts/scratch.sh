# Sourced by scripts that start children: a scratch directory and the background processes
# started, both gone when the script exits however it ends.
# Gives: $work (a new directory), $pids (children to stop with SIGTERM on exit; add yours).
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# Stopped by a signal, the script still cleans up (bash runs the EXIT trap only on exit).
trap 'exit 130' INT
trap 'exit 143' TERM
