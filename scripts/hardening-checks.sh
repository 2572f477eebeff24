#!/usr/bin/env bash
# The hardening repros, run against the real binary: destinations that are not files, empty
# paths, input that used to crash or hang or take gigabytes, results that used to be lost,
# files Headroom wrote and reads back, descriptors. Each repro asserts its exit code, its
# message and what it left behind; a hang is a failure (every command runs under a timeout),
# and the memory-hungry ones run under an address-space limit. No timings are asserted.
# Usage: scripts/hardening-checks.sh HEADROOM [--show]
set -euo pipefail
headroom=$(realpath "${1:?usage: scripts/hardening-checks.sh PATH-TO-headroom [--show]}")
show=${2:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
examples=$PWD/examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
export HEADROOM_STORAGE="$work/reserve" XDG_DATA_HOME="$work/data"

fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# expect CODE NEEDLE -- ARGS...: headroom ARGS exits CODE within 60 s and, when NEEDLE is not
# empty, says it on stderr (code 2) or on stdout or stderr (other codes). Standard input is
# the caller's (Y4M streams are given there).
expect() {
  local code=$1 needle=$2
  shift 3
  local status=0
  timeout -s KILL 60 "$headroom" "$@" >out 2>err || status=$?
  [[ -n $show ]] && echo "\$ headroom $* → exit $status: $(head -c 300 err)"
  if [[ $status -ne $code ]]; then
    fail "headroom $*: exit $status, expected $code"; head -5 err; return
  fi
  local where=(out err)
  [[ $code -eq 2 ]] && where=(err)
  if [[ -n $needle ]] && ! grep -qF -- "$needle" "${where[@]}"; then
    fail "headroom $* lacks \"$needle\":"; head -n 5 "${where[@]}"
  fi
}

# kind PATH TYPE: PATH is still of TYPE (a find -type letter).
kind() { [[ -n $(find "$1" -maxdepth 0 -type "$2") ]] || fail "$1 is no longer of type $2"; }

printf '%s\n' '{"profile":"generic-x86_64","cameras":[{"id":"c","format":{"width":640,"height":480,"maxFrameRate":30}}],"outputs":[{"kind":"preview"}]}' >s.json
printf '1,1,10,10,20,40\n2,1,11,10,20,40\n' >det.txt

# 1. Destinations that are not regular files are refused before the work, and stay as they were.
mknod null c 1 3
mkfifo fifo
expect 2 "--out: null: is a character device; expected a regular file or a new name" -- plan s.json --out null
expect 2 "--out: fifo: is a FIFO" -- plan s.json --out fifo
expect 2 "--out: fifo: is a FIFO" -- track det.txt --out fifo
expect 2 "--out: fifo: is a FIFO" -- record --seconds 1 --out fifo
expect 2 "--record: fifo: is a FIFO" -- run --seconds 1 --record fifo
expect 2 "--record-pressure: null: is a character device" -- run --seconds 1 --record-pressure null
expect 2 "--db: null is not a regular file" -- launch history --db null
# The program's own output is a stream: /dev/null is a fine sink, a FIFO nobody reads an error.
expect 0 "" -- launch measure --db m.sqlite3 --output /dev/null -- /bin/true
expect 2 "--output: cannot open fifo" -- launch measure --db m.sqlite3 --output fifo -- /bin/true
expect 2 "--out: s.json: is a regular file; expected a directory" -- run --seconds 1 --out s.json
kind null c
kind fifo p
[[ ! -e null-journal ]] || fail "--db null made null-journal"

# 2. An empty path is an error, never `/` or the current directory.
expect 2 "--out: expected a path, got an empty one" -- run --seconds 1 --out ''
expect 2 "DIR: expected a path, got an empty one" -- scene ''
expect 2 "--out-dir: expected a path, got an empty one" -- launch measure --out-dir '' -- /bin/true
expect 2 "--textfile: expected a path, got an empty one" -- serve --textfile ''
expect 2 "--storage: expected a path, got an empty one" -- storage status --storage ''
expect 2 "--annotate: expected a path, got an empty one" -- run --seconds 1 --annotate ''

# 4. Input the tool accepts never crashes it.
y4m() { # y4m FILE HEADER-FIELDS FRAMES [EXTRA]: a 64x48 grey Y4M with FRAMES frames.
  { printf 'YUV4MPEG2 W64 H48 %s C420jpeg\n' "$2"
    for ((i = 0; i < $3; i++)); do printf 'FRAME\n'; head -c 4608 /dev/zero; done
    printf '%s' "${4:-}"; } >"$1"
}
y4m inf.y4m 'F inf:1' 1
y4m infinf.y4m 'Finf:inf' 1
expect 2 "expected a frame rate like F30:1" -- run --source - --seconds 2 --out r <inf.y4m
expect 2 "expected a frame rate like F30:1" -- run --source - --seconds 2 --out r <infinf.y4m
printf '%s\n' '{"cameras":[{"id":"c","format":{"width":32768,"height":32768,"maxFrameRate":1000}}],"outputs":[{"kind":"movie"}]}' >huge.json
printf '%s\n' '{"cameras":[{"id":"c","format":{"width":16384,"height":16384,"maxFrameRate":1000}}],"outputs":[{"kind":"movie"}]}' >big.json
expect 2 "cameras[0].format.width: expected an integer from 1 to 16384" -- estimate huge.json
expect 1 "" -- estimate big.json --duration 31536000
printf '%s\n' '{"inferenceLadder":[{"stride":9223372036854775807,"scale":1}]}' >stride.json
printf '%s\n' '{"inferenceLadder":[{"stride":1099511627776,"scale":1}]}' >stride40.json
expect 2 "inferenceLadder[0].stride: expected an integer from 1 to 100" -- run --seconds 1 --policy stride.json
expect 2 "inferenceLadder[0].stride: expected an integer from 1 to 100" -- replay "$examples/traces/thermal-ramp.jsonl" --policy stride40.json
printf '{"phases":[{"name":"a","start":0,"duration":1e308,"depth":0}],"marks":[]}\n' >deep.json
expect 2 "" -- launch import deep.json
mkdir -p reserve/recordings
printf '%s\n' '{"destination":"/tmp/a.y4m","layout":{"headerBytes":-9223372036854775808,"unitBytes":1000}}' >reserve/recordings/a.json
printf 'x' >reserve/recordings/a.part
expect 0 "could not recover an interrupted recording" -- storage status --storage reserve
[[ -e reserve/recordings/a.part ]] || fail "a damaged record's recording was thrown away"

# 5. A run's results are never lost at its end: unwritable destinations are refused first.
expect 2 "--out: /proc/x: cannot write in /proc" -- run --seconds 3 --out /proc/x
[[ ! -s out ]] || fail "run --out /proc/x started the run"
expect 2 "--record-pressure: /proc/x/p.json: cannot write in /proc" -- run --seconds 3 --record-pressure /proc/x/p.json
expect 2 "has a name of 300 bytes" -- run --seconds 3 --out "$(printf 'a%.0s' {1..300})"
# The report directory turns into a file while the run runs: the run still lands in the
# history, and its report in a new directory under the temporary directory, said on stderr.
"$headroom" run --seconds 3 --out late --db late.sqlite3 >late.out 2>late.err & runner=$!
for _ in $(seq 200); do [[ -s late.out ]] && break; sleep 0.05; done
touch late
status=0; wait $runner || status=$?
moved=$(sed -n 's/.*the report went into \(.*\) instead/\1/p' late.err)
[[ $status -eq 1 && -n $moved && -s $moved/run.json ]] || { fail "a report that cannot go where asked: exit $status"; cat late.err; }
# Everything the run promises reaches the fallback: what it saw too, not only the report.
[[ -n $moved && -s $moved/detections.txt && -s $moved/tracks.txt ]] \
  || fail "the fallback lacks detections.txt or tracks.txt: $(ls "$moved" 2>/dev/null | tr '\n' ' ')"
[[ -n $moved ]] && rm -rf "$moved"
# A disk that fills up: --out on an 8 KiB tmpfs (root only, as mount is) takes a little of
# the run and then refuses the rest; everything lands in the fallback, and the report says so.
if [[ $(id -u) -eq 0 ]] && mkdir -p full && mount -t tmpfs -o size=8k headroom-full full 2>/dev/null; then
  status=0
  "$headroom" run --seconds 4 --out full/run --db full.sqlite3 >full.out 2>full.err || status=$?
  moved=$(sed -n 's/.*the report went into \(.*\) instead/\1/p' full.err)
  umount full
  [[ $status -eq 1 && -n $moved ]] || { fail "a full --out: exit $status, no fallback"; cat full.err; }
  for file in run.json run.md detections.txt tracks.txt; do
    [[ -n $moved && -s $moved/$file ]] || fail "a full --out: $file did not reach the fallback $moved"
  done
  grep -q "it and what the run saw went into" "$moved/run.md" 2>/dev/null \
    || fail "a full --out: the report does not say where it went"
  [[ -n $moved ]] && rm -rf "$moved"
fi
# Captured first: `grep -q` leaving early would break headroom's pipe under pipefail.
history=$("$headroom" launch history --db late.sqlite3)
grep -q 'runs 1–1' <<<"$history" || fail "the run whose report moved is not in the history"
"$headroom" record --seconds 600 --out stopped.jsonl >/dev/null 2>&1 & recorder=$!
# Stopped once it catches SIGTERM (its handler is in /proc's SigCgt mask, bit 15): before,
# the default action would end it without a word, which is not what is being checked.
catches() { local mask; mask=$(awk '/^SigCgt/ { print $2 }' "/proc/$1/status" 2>/dev/null); (( 0x${mask:-0} & 0x4000 )); }
for _ in $(seq 200); do catches $recorder && break; sleep 0.05; done
# SIGTERM: a background job of a script ignores SIGINT from the start.
kill -TERM $recorder
status=0; wait $recorder || status=$?
[[ $status -eq 143 ]] || fail "record stopped by SIGTERM: exit $status, expected 143"
[[ -s stopped.jsonl ]] || fail "record stopped by SIGTERM wrote no trace"

# 6. Memory is bounded by what the input holds, not by what it claims.
limit=$((4 << 20)) # KiB of address space: 4 GiB
limited() { prlimit --as=$((limit * 1024)) -- "$@"; }
{ printf 'YUV4MPEG2 W16384 H16384 F1:10 C420jpeg\n'; } >tall.y4m
# The largest frame a header may declare, at 0.1 fps and without frames: its buffers are
# counted against the machine's memory first, and it runs within 4 GiB of address space.
status=0; limited timeout -s KILL 60 "$headroom" run --source - --seconds 3 --out r --json <tall.y4m >out 2>err || status=$?
[[ $status -eq 0 ]] && grep -qF '"framesProcessed" : 0' out || { fail "a 16384² Y4M: exit $status"; head -3 err; }
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "%d,%d,10,10,20,40\n", i, i }' >ids.txt
status=0; limited timeout -s KILL 60 "$headroom" evaluate ids.txt ids.txt --json >out 2>err || status=$?
[[ $status -eq 0 ]] && grep -q '"idf1" : 1' out || { fail "evaluate of 20,000 ids: exit $status"; head -3 err; }
expect 2 "--size: expected WIDTHxHEIGHT, whole pixels from 1 to 16384" -- scene sc --size 99999x99999
expect 2 "--size: expected WIDTHxHEIGHT" -- quality --size 99999x99999

# 7. Nothing hangs: a frame rate of one frame in 31 years, a FIFO where a sensor should be.
y4m slow.y4m 'F1:1000000000' 2
expect 2 "expected a frame rate like F30:1" -- run --source - --out r <slow.y4m
mkdir -p sys/class/thermal/thermal_zone0
printf 'x86_pkg_temp\n' >sys/class/thermal/thermal_zone0/type
mkfifo sys/class/thermal/thermal_zone0/temp
HEADROOM_SYSFS_ROOT=$work/sys expect 0 "" -- status --json

# 8. No wrong answers without a word.
y4m empty.y4m 'F30:1' 0
expect 0 '"framesProcessed" : 0' -- run --source - --out r --json <empty.y4m
y4m truncated.y4m 'F30:1' 10 "FRAME
0123"
expect 0 "the video was not read to its end: truncated frame" -- run --source - --pace max --out r --json <truncated.y4m
printf '1,1,10,10,20,40\n1,1,50,10,20,40\n' >twice.txt
expect 2 "frame 1: id 1 appears more than once" -- evaluate twice.txt twice.txt
printf '1,1,1e17,10,20,40\n' >far.txt
expect 2 "left: expected a number from -1e6 to 1e6" -- evaluate far.txt far.txt
printf '1,1,0x10,10,20,40\n' >hex.txt
expect 2 "left: expected a number, got '0x10'" -- evaluate hex.txt hex.txt
y4m ten.y4m 'F30:1' 10
printf '500,1,10,10,20,40\n' >late.txt
expect 0 "the ground truth scored nothing: its frames 500–500" -- run --source ten.y4m --pace max --gt late.txt --out r --json

# 9. A manifest that lies is refused, and nothing is made from it.
mkdir -p lying/segments
printf '%s\n' '{"version":1,"capacityBytes":1048576,"segmentBytes":1}' >lying/reserve.json
expect 2 "segmentBytes: expected 0 or 1048576 to 67108864, got 1" -- storage replenish --storage lying
[[ -z $(ls lying/segments) ]] || fail "replenish made segments from a lying manifest"
printf '%s\n' '{"version":99,"capacityBytes":0,"segmentBytes":0}' >lying/reserve.json
expect 2 "version: expected 1" -- storage status --storage lying

# 10. Descriptors: 600 zones with 256 descriptors are all read, none stale.
for i in $(seq 0 599); do
  mkdir -p many/class/thermal/thermal_zone$i
  printf 'zone%d\n' "$i" >many/class/thermal/thermal_zone$i/type
  printf '45000\n' >many/class/thermal/thermal_zone$i/temp
done
printf '99000\n' >many/class/thermal/thermal_zone599/temp
status=0
(ulimit -n 256; HEADROOM_SYSFS_ROOT=$work/many timeout -s KILL 60 "$headroom" sensors --json) >out 2>err || status=$?
[[ $status -eq 0 ]] || fail "sensors with 600 zones and 256 descriptors: exit $status"
grep -q "Too many open files" out && fail "sensors went stale for want of descriptors"
grep -q '"celsius" : 99' out || fail "the hot zone (the last of 600) was not read"

# 11. Smaller ones.
printf '%s\n' '{"cameras":[{"id":"\u001b[31mred","format":{"width":640,"height":480,"maxFrameRate":-1}}]}' >escape.json
expect 2 'expected a frame rate above 0' -- estimate escape.json
grep -q $'\x1b' err && fail "an escape from the input reached the terminal"
printf 'ioctl: VIDIOC_ENUM_FMT\n\t[0]: %s\n\t\tSize: Discrete 99999999x99999999\n\t\t\tInterval: Discrete 0.033s (30.000 fps)\n\t\tSize: Discrete 640x480\n\t\t\tInterval: Discrete 0.033s (30.000 fps)\n' "'YUYV' (YUYV 4:2:2)" >v4l2.txt
expect 0 "" -- profiles --v4l2 v4l2.txt --json
mkdir -p ro && chmod 0555 ro
if [[ $(id -u) -ne 0 ]]; then
  XDG_DATA_HOME=$work/ro/data expect 2 "" -- launch history
  grep -q NSCocoaErrorDomain err && fail "an unwritable XDG_DATA_HOME said NSCocoaErrorDomain"
fi

if ((failures > 0)); then
  echo "hardening-checks: $failures failure(s)"
  exit 1
fi
echo "hardening-checks: every repro refused, bounded or kept as it should be"
