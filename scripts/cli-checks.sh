#!/usr/bin/env bash
# Checks the command-line contract with the real binary: exit codes, stdout/stderr discipline,
# and that every bad input names the file and the field. Usage: scripts/cli-checks.sh HEADROOM
set -euo pipefail
headroom=${1:?usage: scripts/cli-checks.sh PATH-TO-headroom}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect CODE NEEDLE -- ARGS...: exit code CODE; for code 2, empty stdout and NEEDLE on stderr.
expect() {
  local code=$1 needle=$2
  shift 3
  local status=0
  "$headroom" "$@" >"$work/out" 2>"$work/err" || status=$?
  if [[ $status -ne $code ]]; then
    echo "FAIL headroom $*: exit $status, expected $code"; cat "$work/err"; failures=$((failures + 1)); return
  fi
  if [[ $code -eq 2 ]]; then
    if [[ -s "$work/out" ]]; then echo "FAIL headroom $*: printed on stdout on error"; failures=$((failures + 1)); fi
    if ! grep -qF -- "$needle" "$work/err"; then
      echo "FAIL headroom $*: stderr lacks \"$needle\":"; cat "$work/err"; failures=$((failures + 1))
    fi
  elif [[ -n $needle ]] && ! grep -qF -- "$needle" "$work/out"; then
    echo "FAIL headroom $*: stdout lacks \"$needle\""; failures=$((failures + 1))
  fi
}

# session NAME JSON: writes a session file into the work directory.
session() { printf '%s\n' "$2" >"$work/$1.json"; }
camera='{ "id": "back", "format": { "width": 1920, "height": 1080, "maxFrameRate": 30 } }'

session malformed '{ "cameras": [ '
session unknown-key "{ \"cameras\": [ $camera ], \"colour\": true }"
session negative '{ "cameras": [ { "id": "a", "format": { "width": 640, "height": 480, "maxFrameRate": -30 } } ] }'
session override "{ \"cameras\": [ { \"id\": \"a\", \"format\": { \"width\": 640, \"height\": 480, \"maxFrameRate\": 30 }, \"frameRateOverride\": 60 } ] }"
session twice "{ \"cameras\": [ $camera, $camera ] }"
session no-camera "{ \"cameras\": [ $camera ], \"outputs\": [ { \"kind\": \"videoData\", \"camera\": \"side\" } ] }"
session bad-profile "{ \"profile\": \"pi-zero\", \"cameras\": [ $camera ] }"

expect 2 "malformed.json: not valid JSON" -- estimate "$work/malformed.json"
expect 2 "unknown-key.json: colour: unknown key" -- estimate "$work/unknown-key.json"
expect 2 "negative.json: cameras[0].format.maxFrameRate: expected a frame rate above 0" -- estimate "$work/negative.json"
expect 2 "override.json: cameras[0].frameRateOverride: expected a frame rate" -- estimate "$work/override.json"
expect 2 "twice.json: cameras[1].id: camera id \"back\" is already used" -- estimate "$work/twice.json"
expect 2 "no-camera.json: outputs[0].camera: no camera has id \"side\"" -- plan "$work/no-camera.json"
expect 2 "bad-profile.json: profile: unknown profile \"pi-zero\"" -- estimate "$work/bad-profile.json"
expect 2 "--profile: unknown profile \"nope\"" -- estimate examples/sessions/single-1080p30.json --profile nope
expect 2 "no such file" -- estimate "$work/missing.json"
expect 2 "unknown option --fast" -- estimate examples/sessions/single-1080p30.json --fast
expect 2 "--min-frame-rate: expected a number" -- plan examples/sessions/dual-4k60.json --min-frame-rate fast
expect 2 "--listen \"nowhere\": expected HOST:PORT" -- serve --listen nowhere
expect 2 "--interval: expected a number" -- serve --interval 0
expect 2 "--max-connections: expected an integer" -- serve --max-connections 0
expect 2 "--max-connections-per-client: expected an integer from 1 to 60000" -- serve --max-connections-per-client 0
expect 2 "--idle-timeout: expected an integer from 1 to 3600" -- serve --idle-timeout 0.5
printf 'a file, not a directory\n' >"$work/plain"
expect 2 "--textfile: $work/plain/sub: $work/plain is not a directory" -- serve --listen 127.0.0.1:0 --textfile "$work/plain/sub"
# A mistyped collector directory is not made (node_exporter would never read it).
expect 2 "--textfile: $work/no-such-collector is not a directory; expected the existing directory" -- serve --listen 127.0.0.1:0 --textfile "$work/no-such-collector"
[[ ! -e $work/no-such-collector ]] || { echo "FAIL serve made the mistyped textfile directory"; failures=$((failures + 1)); }
expect 2 "--priority: applies to --serve's API; give --serve too" -- run --priority 10 --seconds 1
expect 2 "--token-file: applies to --serve's API; give --serve too" -- run --token-file "$work/plain" --seconds 1
expect 2 "--priority: expected an integer from 0 to 100" -- run --serve 127.0.0.1:0 --priority 101
expect 2 "unknown command" -- frobnicate
expect 2 'unknown command "stauts" (did you mean status?)' -- stauts
expect 2 "--forecast: expected a number from 0 to 60, got \"61\"" -- status --forecast 61
printf '{ "headroom": { "baseline": 25 } }\n' >"$work/old-headroom.json"
expect 2 "headroom.baseline: replaced by span" -- status --config "$work/old-headroom.json"
expect 2 "expected FILE" -- estimate

expect 0 "fits on generic-x86_64" -- estimate examples/sessions/single-1080p30.json
expect 1 "over budget" -- estimate examples/sessions/dual-4k60.json
expect 0 "fits on jetson-orin-nx" -- estimate examples/sessions/dual-1080p60-binned.json
expect 0 '"hardwareCost"' -- estimate --json examples/sessions/single-1080p30.json
expect 0 "frame rate 60 fps" -- plan examples/sessions/dual-4k60.json --out "$work/planned.json"
expect 0 "fits on jetson-orin-nx" -- estimate "$work/planned.json"
expect 0 "raspberry-pi-5" -- profiles
# Calibration: a short run writes a profile that estimate takes by path and profiles lists.
expect 2 "--seconds: expected a number" -- calibrate --seconds 0
expect 2 "--out: $work/plain/host.json: $work/plain is not a directory" -- calibrate --out "$work/plain/host.json"
expect 0 "mean absolute error" -- calibrate --seconds 2 --storage-seconds 1 --out "$work/headroom/profiles/host.json"
session small '{ "cameras": [ { "id": "a", "format": { "width": 160, "height": 90, "maxFrameRate": 10 } } ], "outputs": [ { "kind": "videoData" } ] }'
expect 0 "fits on host" -- estimate "$work/small.json" --profile "$work/headroom/profiles/host.json"
XDG_CONFIG_HOME="$work" expect 0 "fits on host" -- estimate "$work/small.json" --profile host
XDG_CONFIG_HOME="$work" expect 0 "this host (" -- profiles
XDG_CONFIG_HOME="$work" expect 2 "\`headroom calibrate\` creates \"host\"" -- estimate examples/sessions/single-1080p30.json --profile hots
# The reserve's write rate measured again, into the host profile calibrate made.
grep -q '"measured by headroom calibrate: .* past the page cache' "$work/headroom/profiles/host.json" \
  || { echo "FAIL calibrate did not measure the write rate past the page cache"; failures=$((failures + 1)); }
XDG_CONFIG_HOME="$work" expect 0 "$work/headroom/profiles/host.json: storageWriteRate updated" -- storage measure --seconds 0.5 --storage "$work/reserve"
grep -q '"measured by headroom storage measure: ' "$work/headroom/profiles/host.json" \
  || { echo "FAIL storage measure did not store its rate"; failures=$((failures + 1)); }
# Beside another writer: said in the profile, and the writer's file gone afterwards.
XDG_CONFIG_HOME="$work" expect 0 "storageWriteRate updated" -- storage measure --seconds 0.5 --competitor 20M --storage "$work/reserve"
grep -q '"measured by headroom storage measure: .*with another writer beside it at ' "$work/headroom/profiles/host.json" \
  || { echo "FAIL storage measure --competitor did not say so in the profile"; failures=$((failures + 1)); }
! ls -A "$work/reserve" | grep -q competing-writer \
  || { echo "FAIL storage measure --competitor left its writer's file"; failures=$((failures + 1)); }
expect 2 "--competitor: expected a rate a second such as 50M" -- storage measure --competitor fast
expect 2 "--competitor does not apply to \`storage status\`" -- storage status --competitor 50M
expect 2 "--storage-competitor: expected a rate a second" -- calibrate --storage-competitor 0
expect 2 "--seconds does not apply to \`storage status\`" -- storage status --seconds 1
expect 2 "--seconds: expected a number" -- storage measure --seconds 0.1
expect 2 "--scenario: expected default or thermal-ramp, got \"beach\"" -- run --scenario beach
expect 2 "--governor: expected on, off or pressure-only" -- run --governor maybe
expect 2 "--seconds: expected a number" -- run --seconds soon
expect 2 "dual-missing.json: no such file" -- run --session "$work/dual-missing.json"
expect 1 "" -- run --session examples/sessions/dual-4k60.json --seconds 1 --db "$work/h.sqlite3"
grep -qF "the planner suggests" "$work/err" || { echo "FAIL run over budget: no planner suggestion"; failures=$((failures + 1)); }
expect 0 '"governorChanges"' -- run --seconds 2 --json --out "$work/run" --db "$work/h.sqlite3"
for report in run.json run.md run.html launch.trace.json launch.md; do
  [[ -s "$work/run/$report" ]] || { echo "FAIL run: no $report"; failures=$((failures + 1)); }
done
# Pressure commands: bad input names the file, line and field; no thermal sensors is said.
printf '{"time": 0}\n{"time": 1, "sensor": []}\n' >"$work/bad-trace.jsonl"
printf '{"cpuPressure": {"fair": 90}}\n' >"$work/bad-pressure.json"
expect 2 "bad-trace.jsonl: line 2: sensor: unknown key" -- replay "$work/bad-trace.jsonl"
expect 2 "bad-pressure.json: cpuPressure.serious: expected more than fair" -- status --config "$work/bad-pressure.json"
expect 2 "--interval: expected a number" -- watch --interval 0
expect 2 "--seconds: expected" -- record --out "$work/trace.jsonl"
# How many samples fit in the window depends on scheduling; at least two must.
expect 0 "samples over 0.5 s" -- record --seconds 0.5 --interval 0.1 --out "$work/trace.jsonl" --model
(($(wc -l <"$work/trace.jsonl") >= 2)) || { echo "FAIL record: fewer than 2 samples"; failures=$((failures + 1)); }
expect 0 "SIMULATED" -- replay "$work/trace.jsonl"
expect 0 "level:" -- status
expect 0 '"sensors"' -- sensors --json
# Tracking: MOTChallenge input errors name FILE:LINE; a short synthetic sequence round-trips.
printf '1,-1,10,20,30,60,0.9\n2,-1,12,20,30,nan,0.9\n' >"$work/nan-det.txt"
printf '1,-1,10,20,30,60,0.9\n1,-1,12,20,-30,60,0.9\n' >"$work/negative-det.txt"
printf '1,-1,10,20\n' >"$work/short-det.txt"
expect 2 "nan-det.txt:2: height: expected a number, got 'nan'" -- track "$work/nan-det.txt"
expect 2 "negative-det.txt:2: width: expected a number from 1e-6 to 1e6" -- track "$work/negative-det.txt"
expect 2 "short-det.txt:1: expected at least 6" -- evaluate "$work/short-det.txt" "$work/short-det.txt"
expect 2 "--image-size: expected WIDTHxHEIGHT" -- track "$work/nan-det.txt" --image-size 640
expect 2 "expected GT.txt and TRACKS.txt" -- evaluate "$work/nan-det.txt"
mkdir -p "$work/scene"
expect 0 "Wrote" -- scene "$work/scene" --seconds 2 --people 3
expect 0 "MOTA" -- track "$work/scene/det.txt" --gt "$work/scene/gt.txt" --out "$work/scene/out.txt"
grep -Eq "HOTA +DetA +AssA +MOTA" "$work/out" || { echo "FAIL track --gt: no HOTA, DetA, AssA columns"; failures=$((failures + 1)); }
expect 0 '"idf1"' -- evaluate "$work/scene/gt.txt" "$work/scene/out.txt" --json
expect 0 '"framesPerSecond"' -- track "$work/scene/det.txt" --gt "$work/scene/gt.txt" --json
# The ground truth scored against itself: every HOTA figure is exactly 1.
expect 0 '"hota"' -- evaluate "$work/scene/gt.txt" "$work/scene/gt.txt" --json
python3 -c '
import json, sys
scores = json.load(open(sys.argv[1]))
keys = ["hota", "detA", "assA", "detRe", "detPr", "assRe", "assPr", "locA", "hota0", "locA0"]
sys.exit(0 if all(scores[key] == 1 for key in keys) and scores["idf1"] == 1 else 1)
' "$work/out" || { echo "FAIL evaluate GT GT: HOTA figures not all 1:"; cat "$work/out"; failures=$((failures + 1)); }
expect 0 "| fps | stride |" -- quality --seconds 1 --fps 15 --strides 1,3

# Hardening (issue 13): files as published, hostile numbers, duplicate keys, unbounded and
# blocking inputs. Each of these crashed, hung or scored silently before.
sed 's/$/\r/' "$work/scene/gt.txt" | sed '1s/^/\xef\xbb\xbf/' >"$work/scene/gt-crlf.txt"
sed 's/$/\r/' "$work/scene/out.txt" >"$work/scene/out-crlf.txt"
"$headroom" evaluate "$work/scene/gt.txt" "$work/scene/out.txt" --json >"$work/lf.json"
expect 0 '"idf1"' -- evaluate "$work/scene/gt-crlf.txt" "$work/scene/out-crlf.txt" --json
cmp -s "$work/lf.json" "$work/out" || { echo "FAIL evaluate: CRLF + BOM files score differently"; failures=$((failures + 1)); }
: >"$work/empty.txt"
expect 2 "empty.txt: no boxes found" -- evaluate "$work/scene/gt.txt" "$work/empty.txt"
printf '100000000,1,0,0,1,1\n' >"$work/far-frame.txt"
expect 2 "far-frame.txt:1: frame: expected a whole number from 1 to 1000000" -- track "$work/far-frame.txt"
"$headroom" profiles --json | python3 -c '
import json, sys
profile = json.load(sys.stdin)[0]
for name, key, value in [("fsrf", "fullSensorReadoutFactor", 1e19), ("raw", "rawBytesPerPixel", 1e19),
                         ("pixels", "pixelRate", 1e-300), ("memory", "memoryBandwidth", 1e-300)]:
    json.dump(dict(profile, **{key: value}), open(sys.argv[1] + "/profile-" + name + ".json", "w"))
weights = dict(profile["outputWeights"], movie=9.2e18)
json.dump(dict(profile, outputWeights=weights), open(sys.argv[1] + "/profile-weight.json", "w"))
' "$work"
expect 2 "profile-fsrf.json: fullSensorReadoutFactor: expected a factor above 1 and at most 100" -- estimate examples/sessions/dual-4k60.json --profile "$work/profile-fsrf.json"
expect 2 "profile-raw.json: rawBytesPerPixel: expected 0.01 to 16" -- plan examples/sessions/dual-4k60.json --profile "$work/profile-raw.json"
expect 2 "profile-pixels.json: pixelRate: expected 1e3 to 1e13" -- estimate examples/sessions/dual-4k60.json --profile "$work/profile-pixels.json"
expect 2 "profile-memory.json: memoryBandwidth: expected 1e3 to 1e14" -- plan examples/sessions/dual-4k60.json --profile "$work/profile-memory.json"
expect 2 "profile-weight.json: outputWeights.movie: expected a weight above 0 and at most 1000" -- estimate examples/sessions/dual-4k60.json --profile "$work/profile-weight.json"
session fraction '{ "cameras": [ { "id": "a", "format": { "width": 1.5, "height": 480, "maxFrameRate": 30 } } ] }'
session huge '{ "cameras": [ { "id": "a", "format": { "width": 1e30, "height": 480, "maxFrameRate": 30 } } ] }'
session duplicate "{ \"profile\": \"generic-x86_64\", \"cameras\": [ $camera ], \"profile\": \"jetson-orin-nx\" }"
expect 2 "fraction.json: cameras[0].format.width: expected an integer, got 1.5" -- estimate "$work/fraction.json"
expect 2 "huge.json: cameras[0].format.width: expected an integer from" -- estimate "$work/huge.json"
expect 2 "duplicate.json: profile: duplicate key" -- estimate "$work/duplicate.json"
grep -q "Fatal error\|Backtrace" "$work/err" && { echo "FAIL estimate: a trace on stderr"; failures=$((failures + 1)); }
{ printf '\xef\xbb\xbf'; sed 's/$/\r/' examples/sessions/single-1080p30.json; } >"$work/published.json"
expect 0 "fits on" -- estimate "$work/published.json"
expect 2 "/dev/zero: is a character device; expected a regular file" -- estimate /dev/zero
mkfifo "$work/fifo"
status=0
timeout 10 "$headroom" estimate "$work/fifo" >/dev/null 2>"$work/err" || status=$?
[[ $status -eq 2 ]] && grep -qF "is a FIFO" "$work/err" || { echo "FAIL estimate FIFO: exit $status"; failures=$((failures + 1)); }
head -c $((17 << 20)) /dev/zero >"$work/big.json"
expect 2 "big.json: is larger than the input limit of 16 MiB" -- estimate "$work/big.json"
expect 0 "fits on" -- estimate - <examples/sessions/single-1080p30.json
python3 -c '
import json, sys
camera = {"id": "a", "format": {"width": 1920, "height": 1080, "maxFrameRate": 30}}
for count in (1000, 1001):
    outputs = [{"kind": "videoData", "camera": "a", "optional": True}] * count
    json.dump({"cameras": [camera], "outputs": outputs}, open(f"{sys.argv[1]}/outputs-{count}.json", "w"))
' "$work"
expect 0 "Pixel rate kept" -- plan "$work/outputs-1000.json"
# A 14 MB session (200,000 outputs, one key a line): parsed in linear time, refused by its bound.
python3 -c '
import json, sys
camera = {"id": "a", "format": {"width": 1920, "height": 1080, "maxFrameRate": 30}}
outputs = [{"kind": "videoData", "camera": "a"}] * 200000
json.dump({"cameras": [camera], "outputs": outputs}, open(sys.argv[1], "w"), indent=1)
' "$work/outputs-200000.json"
status=0
timeout 60 "$headroom" estimate "$work/outputs-200000.json" >/dev/null 2>"$work/err" || status=$?
[[ $status -eq 2 ]] && grep -qF "outputs: expected at most 1000 outputs, got 200000" "$work/err" \
  || { echo "FAIL estimate of a 14 MB session: exit $status"; cat "$work/err"; failures=$((failures + 1)); }

expect 2 "outputs-1001.json: outputs: expected at most 1000 outputs, got 1001" -- plan "$work/outputs-1001.json"

# The option layer: repeated, missing and unknown options name the option; --version;
# completions that the shell accepts; colour only on a terminal and never with NO_COLOR.
expect 2 "--seconds: given twice; expected it once" -- run --seconds 3 --seconds 4
expect 2 "--out: expected a value (FILE)" -- calibrate --out
expect 2 "unknown option --colour" -- status --colour
expect 2 "--storage: only with --duration" -- estimate examples/sessions/single-1080p30.json --storage /tmp
expect 0 "headroom " -- --version
expect 0 "complete -F _headroom headroom" -- completions bash
"$headroom" completions bash | bash -n || { echo "FAIL completions bash: not valid bash"; failures=$((failures + 1)); }
expect 0 "complete -c headroom" -- completions fish
expect 2 "SHELL: expected bash, zsh or fish" -- completions tcsh
if command -v script >/dev/null; then  # script(1) gives the command a terminal
  script -qec "$headroom status" /dev/null >"$work/tty" 2>&1 || true
  NO_COLOR=1 script -qec "$headroom status" /dev/null >"$work/tty-plain" 2>&1 || true
  "$headroom" status >"$work/pipe" 2>&1 || true
  grep -q $'\e\[' "$work/tty" || { echo "FAIL status on a terminal: no colour"; failures=$((failures + 1)); }
  ! grep -q $'\e\[' "$work/tty-plain" || { echo "FAIL NO_COLOR: colour on a terminal"; failures=$((failures + 1)); }
  ! grep -q $'\e\[' "$work/pipe" || { echo "FAIL colour into a pipe"; failures=$((failures + 1)); }
fi

# A run on a trace that reaches shutdown: replayed in time, and --json stays JSON when a cost
# over a budget of 0 is infinite.
for time in 0 1 2 3; do
  printf '{"time":%s,"simulated":true,"sensors":[{"id":"model/cpu","label":"cpu","source":"model","celsius":99,"high":80,"critical":95,"stale":false}]}\n' "$time"
done >"$work/hot.jsonl"
"$headroom" run --trace "$work/hot.jsonl" --seconds 3 --governor pressure-only --out "$work/hot" \
  --db "$work/hot.sqlite3" --json >"$work/hot.json" 2>"$work/err" || true
jq -e '.worstLevel == "shutdown"' "$work/hot.json" >/dev/null \
  || { echo "FAIL run --trace to shutdown --json:"; head -c 300 "$work/hot.json"; cat "$work/err"; failures=$((failures + 1)); }

for command in $("$headroom" --help | awk '/^commands:/{on=1;next} on&&!NF{exit} on{print $1}'); do
  expect 0 "usage: headroom $command" -- "$command" --help
done

python3 - "$headroom" <<'PY'
import json, subprocess, sys
out = subprocess.run([sys.argv[1], "estimate", "--json", "examples/sessions/dual-4k60.json"],
                     capture_output=True, text=True)
estimate = json.loads(out.stdout)
for key in ("hardwareCost", "fits", "cameras", "limitingBudget"):
    assert key in estimate, key
assert estimate["fits"] is False and estimate["hardwareCost"] > 1
assert all({"id", "cost"} <= set(c) for c in estimate["cameras"])
PY

# Capture that fails once the run has started ends the run: the reason is in run.json, on the
# console and in the exit status (1), and the report is written all the same. Here the movie
# output cannot preallocate its file (TMPDIR does not exist).
"$headroom" storage allocate 32M --storage "$work/reserve" >/dev/null
status=0
TMPDIR="$work/no-such-dir" "$headroom" run --clock virtual --seconds 5 \
  --session examples/sessions/record-1080p30.json --storage "$work/reserve" --out "$work/failed" \
  >"$work/out" 2>"$work/err" || status=$?
if [[ $status -ne 1 ]] \
  || ! grep -qF "the run failed: movie output: cannot create a file in $work/no-such-dir" "$work/err" \
  || [[ $(jq -r .failure "$work/failed/run.json") != "movie output: cannot create a file in $work/no-such-dir: No such file or directory" ]]; then
  echo "FAIL a capture failure did not end the run with its reason (exit $status):"
  cat "$work/err"; failures=$((failures + 1))
fi

# The usage lines docs/cli.md lists are the ones each command's --help writes from its
# declarations (regenerate the block with this loop when a command changes).
usage_lines() {
  "$headroom" --help | awk '/^commands:/ { listed = 1; next } listed && /^  [a-z]/ { print $1 } listed && /^$/ { exit }' \
    | while read -r command; do "$headroom" "$command" --help | awk '/^usage:/ { on = 1 } on && /^$/ { exit } on'; done
}
usage_lines >"$work/usage-generated"
awk '/^## Usage lines/ { section = 1 } section && /^```$/ { fences++; if (fences == 2) exit; next } section && fences == 1' \
  docs/cli.md >"$work/usage-documented"
if ! diff -u "$work/usage-documented" "$work/usage-generated"; then
  echo "FAIL docs/cli.md's usage lines differ from --help (above: - documented, + generated)"
  failures=$((failures + 1))
fi

if ((failures > 0)); then
  echo "cli-checks: $failures failure(s)"
  exit 1
fi
echo "cli-checks: passed"
