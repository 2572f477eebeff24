#!/usr/bin/env bash
# Pro video storage on real filesystems, as root in a private mount namespace: a tmpfs and a
# small ext4 image on a loop device. The Swift suites StorageReserveTests and UncachedWritesTests
# (writes past the page cache, none of them cached) run on both; then the CLI: allocated blocks
# equal the reserve, a read-only filesystem is unsupported, a second
# process sees `recording` as busy, a full reserve ends a recording cleanly, a recording moved
# across filesystems is copied, SIGTERM mid-recording still finishes the file, and 20 SIGKILLs
# at random moments never leave a partial file at the destination while the next start
# recovers the segments. Skipped, saying so, without root, unshare or a loop device.
# Usage: scripts/storage-checks.sh PATH-TO-headroom   (after a debug build with tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
headroom=$(realpath "${1:?usage: scripts/storage-checks.sh PATH-TO-headroom}")

if [[ $(id -u) -ne 0 ]] || ! unshare --mount --propagation private true 2>/dev/null; then
  echo "storage-checks: SKIPPED: needs root and unshare --mount (tmpfs and ext4 mounts)" >&2
  exit 0
fi

unshare --mount --propagation private bash -euo pipefail -c '
headroom=$1
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  umount "$work/ext4" "$work/tmpfs" "$work/readonly" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL storage-checks: $*" >&2; exit 1; }

mkdir -p "$work/tmpfs" "$work/ext4" "$work/readonly"
mount -t tmpfs -o size=96m headroom-storage "$work/tmpfs"
truncate -s 256M "$work/ext4.img"
mkfs.ext4 -q -F "$work/ext4.img"
if ! mount -o loop "$work/ext4.img" "$work/ext4" 2>/dev/null; then
  echo "storage-checks: SKIPPED: no loop device to mount an ext4 image on" >&2
  exit 0
fi
mount -t tmpfs -o size=8m,ro headroom-readonly "$work/readonly"

# y4m_frames FILE: prints the whole frames of a Y4M file, failing unless the file is a header
# and whole frames only (and, with ffprobe, unless ffmpeg decodes the same number).
y4m_frames() {
  local header width height frame size frames
  header=$(head -c 256 "$1" | head -n 1)
  [[ $header == YUV4MPEG2* ]] || fail "$1 does not start with a Y4M header"
  width=$(sed -E "s/.* W([0-9]+).*/\1/" <<<"$header")
  height=$(sed -E "s/.* H([0-9]+).*/\1/" <<<"$header")
  frame=$((6 + width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)))
  size=$(stat -c %s "$1")
  (( (size - ${#header} - 1) % frame == 0 )) || fail "$1 ends inside a frame"
  frames=$(( (size - ${#header} - 1) / frame ))
  if command -v ffprobe >/dev/null; then
    local decoded
    decoded=$(ffprobe -v error -count_frames -select_streams v:0 \
      -show_entries stream=nb_read_frames -of csv=p=0 "$1")
    [[ $decoded == "$frames" ]] || fail "$1: ffprobe decodes $decoded frames, expected $frames"
  fi
  echo "$frames"
}

# The library suite on both filesystems.
log=$(mktemp)
HEADROOM_STORAGE_FILESYSTEMS="tmpfs=$work/tmpfs ext4=$work/ext4" \
  swift test --skip-build --filter "StorageReserveTests|UncachedWritesTests" >"$log" 2>&1 \
  || { cat "$log"; fail "suite"; }
for suite in StorageReserveTests UncachedWritesTests; do
  grep -q "Suite $suite passed" "$log" || { cat "$log"; fail "$suite did not run"; }
done
grep -q "bypass the page cache.* with 3 test cases passed" "$log" \
  || fail "the uncached writes were not tested on all three filesystems"
echo "storage-checks: StorageReserveTests and UncachedWritesTests passed on the temporary directory, tmpfs and ext4"

reserve=$work/ext4/reserve
# A 320x180 camera at 30 fps: 2.6 MB/s of Y4M.
cat >"$work/session.json" <<JSON
{"profile": "generic-x86_64",
 "cameras": [{"id": "cam", "format": {"width": 320, "height": 180, "maxFrameRate": 30}}],
 "outputs": [{"kind": "preview"}, {"kind": "videoData"},
             {"kind": "movie", "usesProVideoStorage": true}]}
JSON
# A small recording run through the reserve (add --seconds S --record PATH --out DIR).
run=("$headroom" run --governor off --session "$work/session.json" --storage "$reserve"
  --db "$work/history.sqlite3" --json)

# Allocated blocks equal the reserve; the status agrees.
"$headroom" storage allocate 48M --storage "$reserve" >/dev/null
blocks=$(find "$reserve/segments" -type f -printf "%b\n" | awk "{ s += \$1 * 512 } END { print s }")
[[ $blocks == $((48 << 20)) ]] || fail "segments hold $blocks allocated bytes, expected 48 MiB"
"$headroom" storage status --storage "$reserve" --json \
  | jq -e ".supported and .capacityBytes == 50331648 and .remainingBytes == 50331648" >/dev/null \
  || fail "status after allocate"
"$headroom" storage status --storage "$reserve" --destination "$work/tmpfs/x.y4m" --json \
  | jq -e ".destinationIsSameFilesystem == false" >/dev/null || fail "cross-filesystem destination"
status=0
"$headroom" storage allocate 1T --storage "$reserve" 2>"$work/err" || status=$?
[[ $status -eq 2 ]] && grep -q "not enough space" "$work/err" || fail "1T on 256M: exit $status"

# A read-only filesystem cannot hold a reserve.
status=0
"$headroom" storage status --storage "$work/readonly/reserve" >"$work/out" || status=$?
[[ $status -eq 1 ]] && grep -q "supported    no" "$work/out" || fail "read-only: exit $status"

# A second process sees the recording as busy, and cannot resize the reserve under it.
"${run[@]}" --seconds 6 --record "$work/ext4/busy.y4m" --out "$work/runs/busy" >"$work/busy.json" 2>"$work/busy.err" &
pids+=($!)
for _ in $(seq 100); do
  [[ -n $(ls "$reserve/recordings" 2>/dev/null) ]] && break
  sleep 0.1
done
"$headroom" storage status --storage "$reserve" --json \
  | jq -e ".busyReasons == [\"recording\"] and .remainingBytes < 50331648" >/dev/null \
  || fail "status during a recording"
status=0
"$headroom" storage allocate 64M --storage "$reserve" 2>"$work/err" || status=$?
[[ $status -eq 1 ]] && grep -q "busy: recording" "$work/err" || fail "allocate while recording: exit $status"
wait "${pids[-1]}"
frames=$(y4m_frames "$work/ext4/busy.y4m")
jq -e ".recording.frames == $frames and .recording.endReason == \"finished\" and .recording.uncached" "$work/busy.json" \
  >/dev/null || { jq .recording "$work/busy.json"; cat "$work/busy.err"; fail "busy.y4m: report disagrees with the $frames frames in the file"; }
"$headroom" storage status --storage "$reserve" --json \
  | jq -e ".remainingBytes == 50331648 and .busyReasons == []" >/dev/null \
  || fail "not replenished after the recording"
echo "storage-checks: a second process saw \"recording\"; $frames frames recorded, reserve replenished"

# Across filesystems: the recording is copied to the tmpfs destination.
"${run[@]}" --seconds 2 --record "$work/tmpfs/copied.y4m" --out "$work/runs/copied" >/dev/null
frames=$(y4m_frames "$work/tmpfs/copied.y4m")
echo "storage-checks: recorded $frames frames into another filesystem (copied)"

# A full reserve ends the recording cleanly; the run goes on and exits 0.
small=$work/ext4/small
"$headroom" storage allocate 2M --storage "$small" >/dev/null
"$headroom" run --seconds 3 --governor off --record "$work/ext4/full.y4m" --storage "$small" \
  --out "$work/runs/full" --db "$work/history.sqlite3" >/dev/null 2>"$work/full.err" \
  || fail "a full reserve failed the run"
grep -q "notEnoughSpace" "$work/full.err" || fail "no notEnoughSpace on stderr"
jq -e ".recording.endReason == \"notEnoughSpace\"" "$work/runs/full/run.json" >/dev/null \
  || fail "run.json lacks notEnoughSpace"
frames=$(y4m_frames "$work/ext4/full.y4m")
(( frames == 2 )) || fail "2 MiB holds 2 frames of 960x540, the file has $frames"
echo "storage-checks: a full reserve ended the recording at $frames whole frames, the run went on"

# SIGTERM in the middle: the run stops, the recording is finished, not lost.
"${run[@]}" --seconds 30 --record "$work/ext4/term.y4m" --out "$work/runs/term" >/dev/null 2>&1 &
pid=$!
pids+=("$pid")
for _ in $(seq 100); do
  [[ $(find "$reserve/recordings" -name "*.part" -size +2M 2>/dev/null) ]] && break
  sleep 0.1
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[[ $status -eq 143 ]] || fail "SIGTERM: exit $status"
frames=$(y4m_frames "$work/ext4/term.y4m")
echo "storage-checks: SIGTERM mid-recording: exit 143, $frames frames finished at the destination"

# SIGKILL at random moments, 20 times: never a partial file at the destination; the next start
# recovers the recording beside it and the reserve comes back whole.
recovered=0
for trial in $(seq 20); do
  destination=$work/ext4/kill-$trial.y4m
  "${run[@]}" --seconds 30 --record "$destination" --out "$work/runs/kill-$trial" >/dev/null 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 100); do
    [[ -n $(ls "$reserve/recordings" 2>/dev/null) ]] && break
    sleep 0.05
  done
  sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  [[ ! -e $destination ]] || fail "trial $trial: a file at the destination after SIGKILL"
  "$headroom" storage status --storage "$reserve" --json >"$work/status.json" 2>"$work/recover.err"
  jq -e ".busyReasons == []" "$work/status.json" >/dev/null || fail "trial $trial: still busy"
  [[ -z $(ls "$reserve/recordings") ]] || fail "trial $trial: recordings left in the reserve"
  if [[ -e ${destination%.y4m}.recovered.y4m ]]; then
    y4m_frames "${destination%.y4m}.recovered.y4m" >/dev/null
    grep -q "recovered" "$work/recover.err" || fail "trial $trial: recovery not reported"
    recovered=$((recovered + 1))
    rm "${destination%.y4m}.recovered.y4m"
  fi
  "$headroom" storage replenish --storage "$reserve" --json \
    | jq -e ".remainingBytes == 50331648" >/dev/null || fail "trial $trial: not replenished"
done
echo "storage-checks: 20 SIGKILLs: no partial destination; $recovered recovered as NAME.recovered.y4m, the rest held no whole frame"
' storage-checks "$headroom"
echo "storage-checks: passed"
