#!/usr/bin/env bash
# Measures Headroom's GStreamer pieces against baselines from the same run (not part of the
# tests; docs/gstreamer.md has the figures):
#   1. headroomrate's per-buffer cost against a do-nothing Python transform element (the floor
#      for any Python element), in the same pipeline: videotestsrc ! ELEMENT ! fakesink, CPU
#      time per buffer (N buffers less 0 buffers), in rounds, medians. headroomrate both with
#      every buffer passing the open gate (no service) and through the rate path (a service
#      advising 15 fps to a 10 fps stream: each buffer paced by its timestamp, all passing).
#   2. the headroom tracer's effect on a measured launch: `launch measure` of the vtest
#      pipeline with GST_TRACERS=headroom and without, 10 runs each, alternating, both to the
#      program's exit (wall time as measure stores it, and CPU time).
#   3. `launch measure --runs 10` of the vtest pipeline with the tracer: its history table.
#   4. (--ramp) the thermal ramp in its recorded time: passed against advised at each step.
# Usage: scripts/bench-gstreamer.sh HEADROOM-BINARY [--buffers N] [--rounds N]
#        [--tracer-runs N (default 10)] [--ramp] [--only SECTION (1, 2 or 3; with --ramp, 4 too)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
headroom=${1:?usage: scripts/bench-gstreamer.sh PATH-TO-headroom [--buffers N] [--rounds N] [--tracer-runs N] [--ramp] [--only 1|2|3]}
shift
buffers=20000
rounds=5
tracer_runs=10
ramp=no
only=
while (($#)); do
  case $1 in
    --buffers) buffers=${2:?--buffers: expected a count}; shift 2 ;;
    --rounds) rounds=${2:?--rounds: expected a count}; shift 2 ;;
    --tracer-runs) tracer_runs=${2:?--tracer-runs: expected a count}; shift 2 ;;
    --ramp) ramp=yes; shift ;;
    --only) only=${2:?--only: expected a section, 1 to 3}; shift 2 ;;
    *) echo "bench-gstreamer: unknown option $1" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3
# wants SECTION: whether to run that section (all of them without --only).
wants() { [[ -z $only || $only == "$1" ]]; }
work=$(mktemp -d)
serve_pid=
trap '[[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT

scripts/install-gstreamer.sh --prefix "$work/prefix" >/dev/null
plugins=$work/prefix/lib/gstreamer-1.0
# The floor: a Python transform that does nothing, loaded the same way.
cat >"$plugins/python/noopxform.py" <<'PY'
"""A Python transform element that does nothing: the floor of a Python element's cost."""
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
from gi.repository import GObject, Gst, GstBase  # noqa: E402

Gst.init(None)


class NoopTransform(GstBase.BaseTransform):
    __gstmetadata__ = ("No-op transform", "Filter", "Passes every buffer untouched", "bench")
    __gsttemplates__ = (
        Gst.PadTemplate.new("sink", Gst.PadDirection.SINK, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
        Gst.PadTemplate.new("src", Gst.PadDirection.SRC, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
    )

    def __init__(self) -> None:
        super().__init__()
        self.set_passthrough(True)

    def do_transform_ip(self, buffer: Gst.Buffer) -> Gst.FlowReturn:
        return Gst.FlowReturn.OK


GObject.type_register(NoopTransform)
__gstelementfactory__ = ("noopxform", Gst.Rank.NONE, NoopTransform)
PY
export GST_PLUGIN_PATH=$plugins GST_REGISTRY=$work/registry.bin
unset GST_TRACERS GST_DEBUG PYTHONPATH
gst-inspect-1.0 noopxform >/dev/null 2>&1

# A host held at the ramp's hottest sample (critical): a client following the levels gets
# 15 fps from its first advice.
"$python" - examples/traces/thermal-ramp.jsonl "$work/hot.jsonl" <<'PY'
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
with open(sys.argv[2], "w") as out:
    for second in range(3600):
        out.write(json.dumps(dict(last, time=float(second))) + "\n")
PY
"$headroom" serve --listen 127.0.0.1:0 --trace "$work/hot.jsonl" >"$work/serve.log" 2>&1 &
serve_pid=$!
until grep -q '^serving on' "$work/serve.log"; do
  kill -0 "$serve_pid" || { cat "$work/serve.log"; exit 1; }
  sleep 0.1
done
port=$(sed -n 's/^serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.log")
cat >"$work/follow.json" <<'JSON'
{"name": "bench", "priority": 50, "nominalFrameRate": 30, "minFrameRate": 2, "share": 0.1,
 "followsLevels": true, "ladder": [{"name": "full", "cost": 1}]}
JSON

if wants 1; then
echo "== 1. per-buffer cost: $buffers buffers, $rounds rounds (CPU time, medians)"
"$python" - "$buffers" "$rounds" "$port" "$work/follow.json" <<'PY'
import os, re, resource, statistics, subprocess, sys
buffers, rounds, port, ladder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
caps = "video/x-raw,width=16,height=16,framerate=10/1"
variants = {
    "bare (no element)": [],
    "noopxform (Python floor)": ["noopxform", "!"],
    "headroomrate, open gate": ["headroomrate", "service=http://127.0.0.1:1", "!"],
    "headroomrate, rate path": ["headroomrate", f"service=http://127.0.0.1:{port}",
                                "nominal-rate=30", f"ladder={ladder}", "!"],
}

def run(element, count):
    """CPU seconds of one gst-launch-1.0 of `count` buffers, and its -m output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        ["gst-launch-1.0", "-m", "videotestsrc", f"num-buffers={count}", "pattern=black", "!",
         caps, "!", *element, "fakesink"], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stdout

per_buffer = {name: [] for name in variants}
paced = []
for _ in range(rounds):
    for name, element in variants.items():
        full, output = run(element, buffers)
        empty, _ = run(element, 0)
        per_buffer[name].append((full - empty) / buffers)
        if name.endswith("rate path"):
            advice = re.findall(r"headroom-advice, in=\(guint64\)(\d+).*?frame-rate=\(double\)([0-9.]+)", output)
            eos = re.search(r"headroom-eos, in=\(guint64\)(\d+), out=\(guint64\)(\d+)", output)
            paced_from = next((int(n) for n, rate in advice if float(rate) < 30), None)
            if paced_from is None or eos is None or eos.group(1) != eos.group(2):
                sys.exit(f"the rate path was not taken: advice {advice}, eos {eos and eos.group(0)}")
            paced.append(1 - paced_from / buffers)
median = {name: statistics.median(values) for name, values in per_buffer.items()}
for name, value in median.items():
    spread = max(per_buffer[name]) - min(per_buffer[name])
    print(f"  {name:<26} {value * 1e6:7.2f} µs a buffer (spread {spread * 1e6:.2f})")
bare, floor = median["bare (no element)"], median["noopxform (Python floor)"]
for name in ("headroomrate, open gate", "headroomrate, rate path"):
    pipeline = median[name] / floor
    element = (median[name] - bare) / (floor - bare)
    print(f"  {name}: {pipeline:.2f}× the floor's pipeline, {element:.2f}× the floor's own "
          f"cost (over the bare pipeline)")
print(f"  (the rate path paced {statistics.median(paced):.1%} of the buffers; the first ones "
      f"passed the open gate before the first advice)")
PY

fi

vtest=$(dpkg -L opencv-doc 2>/dev/null | grep '/vtest\.avi$' | head -n 1)
db=$work/history.sqlite3
pipeline=(gst-launch-1.0 filesrc location="$vtest" ! decodebin ! videoconvert ! fakesink)
if wants 2; then
echo "== 2. the tracer's effect: the whole vtest pipeline to its exit, $tracer_runs runs each"
# Alternating, so the machine's drift hits both alike; the CPU time of each measured run (the
# program's and measure's own) beside the wall time `launch measure` stores.
"$python" - "$headroom" "$db" "$tracer_runs" "${pipeline[@]}" <<'PY'
import os, resource, statistics, subprocess, sys
headroom, db, runs, pipeline = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
cpu = {"without": [], "with": []}
for _ in range(runs):
    for label in ("without", "with"):
        env = dict(os.environ, GST_TRACERS="headroom") if label == "with" else os.environ
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([headroom, "launch", "measure", "--runs", "1", "--label", label,
                        "--ready", "never", "--db", db, "--output", "/dev/null", "--",
                        *pipeline], env=env, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[label].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
without, with_tracer = (statistics.median(cpu[label]) * 1000 for label in ("without", "with"))
print(f"  median CPU time: {without:.1f} ms without, {with_tracer:.1f} ms with: "
      f"{with_tracer / without:.3f}×")
PY
"$headroom" launch compare without with --db "$db" || true
"$headroom" launch history --label without --db "$db" --json >"$work/without.json"
"$headroom" launch history --label with --db "$db" --json >"$work/with.json"
"$python" - "$work/without.json" "$work/with.json" <<'PY'
import json, sys
def exit_p50(path):
    """The median time of the `exit` mark, ms."""
    for row in json.load(open(path))["metrics"]:
        if row["metric"] == {"kind": "markTime", "name": "exit"}:
            return row["p50"] * 1000
    sys.exit(f"{path}: no exit mark")
without, with_tracer = exit_p50(sys.argv[1]), exit_p50(sys.argv[2])
print(f"  median wall time to exit: {without:.3f} ms without, {with_tracer:.3f} ms with: "
      f"{with_tracer / without:.3f}×")
PY
fi

if wants 3; then
echo "== 3. GST_TRACERS=headroom headroom launch measure --runs 10 -- ${pipeline[*]}"
GST_TRACERS=headroom "$headroom" launch measure --runs 10 --label vtest --db "$db" --output /dev/null -- "${pipeline[@]}" | tail -n 1
"$headroom" launch history --label vtest --db "$db"
fi

if [[ $ramp == yes ]] && wants 4; then
  echo "== 4. the thermal ramp in its recorded time (limits taking it to shutdown at 85 °C)"
  echo '{"temperature": {"sensors": {"model/cpu": {"high": 65, "critical": 85}}}}' >"$work/limits.json"
  cat >"$work/ramp.json" <<'JSON'
{"name": "ramp", "priority": 5, "nominalFrameRate": 30, "minFrameRate": 2, "share": 0.3,
 "ladder": [{"name": "full", "cost": 150}, {"name": "coarse", "cost": 44}]}
JSON
  "$headroom" serve --listen 127.0.0.1:0 --interval 0.5 --trace examples/traces/thermal-ramp.jsonl \
    --config "$work/limits.json" >"$work/serve-ramp.log" 2>&1 &
  ramp_serve=$!
  until grep -q '^serving on' "$work/serve-ramp.log"; do sleep 0.1; done
  ramp_port=$(sed -n 's/^serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve-ramp.log")
  gst-launch-1.0 -m videotestsrc is-live=true num-buffers=1950 ! video/x-raw,width=64,height=48,framerate=30/1 \
    ! headroomrate service="http://127.0.0.1:$ramp_port" ladder="$work/ramp.json" ! fakesink >"$work/ramp.out" 2>&1
  kill "$ramp_serve" 2>/dev/null || true
  "$python" scripts/gstreamer_steps.py "$work/ramp.out" --expect shed,pause,eos
fi
