#!/usr/bin/env bash
# libheadroom as a C user gets it: scripts/install.sh into a scratch prefix, then
# Tests/CLibrary/check.c compiled with `cc $(pkg-config --cflags --libs headroom)` and run
# against a heated Raspberry Pi fixture (every function, its errors, four threads marking),
# once more under AddressSanitizer; then examples/c/launch.c measured by `headroom launch
# measure` with its encoder deferred and not, and `launch compare` flagging the eager build's
# later first frame. Usage: scripts/c-library-checks.sh HEADROOM [--show]
set -euo pipefail
headroom=${1:?usage: scripts/c-library-checks.sh PATH-TO-headroom [--show]}
show=${2:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

scripts/install.sh --prefix "$work/prefix" --from "$(dirname "$headroom")" --no-group >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs headroom)
[[ $show == --show ]] && echo "pkg-config --cflags --libs headroom: $flags"
grep -q "Swift" "$work/prefix/include/headroom.h" && fail "headroom.h names a Swift type"

fixture() {
  rm -rf "$work/board" && mkdir -p "$work/board/proc"
  cp -r Tests/Boards/raspberry-pi-4/sys "$work/board/sys"
}
cc -Wall -Wextra -Werror -o "$work/check" Tests/CLibrary/check.c $flags -lm -lpthread
fixture
"$work/check" "$work/board/sys" "$work/board/proc" "$work/report.json" || fail "check.c"
"$headroom" launch import "$work/report.json" --db "$work/h.sqlite3" >/dev/null \
  || fail "the library's report is not a valid launch report"
cc -g -fsanitize=address -fno-omit-frame-pointer -o "$work/check-asan" Tests/CLibrary/check.c \
  $flags -lm -lpthread
fixture
"$work/check-asan" "$work/board/sys" "$work/board/proc" "$work/report-asan.json" \
  || fail "check.c under AddressSanitizer"

# Marks under attack (Tests/CLibrary/marks.c): a gone reader, a full pipe, descriptor 3
# reused for the program's own file, names that are not names. Under a timeout: a blocked
# mark would hang; a SIGPIPE would kill (exit 141).
cc -Wall -Wextra -Werror -o "$work/marks" Tests/CLibrary/marks.c $flags
for mode in gone full "reused $work/data.bin" names; do
  status=0
  # shellcheck disable=SC2086  # the mode's words
  timeout -s KILL 20 "$work/marks" $mode 2>"$work/marks.err" || status=$?
  [[ $status -eq 0 ]] || { fail "marks $mode: exit $status"; cat "$work/marks.err"; }
done

# The example: first frame before the encoder (deferred) and after it (eager).
cc -Wall -Wextra -Werror -o "$work/launch" examples/c/launch.c $flags
ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=640x480:rate=30 -frames:v 3 -pix_fmt yuv420p \
  "$work/frames.y4m"
db="$work/c.sqlite3"
"$headroom" launch measure --runs 10 --db "$db" --output "$work/out.log" -- "$work/launch" \
  "$work/frames.y4m" >/dev/null || fail "measuring the C example"
"$headroom" launch measure --runs 10 --label eager --db "$db" --output "$work/out.log" -- \
  "$work/launch" --no-deferred "$work/frames.y4m" >/dev/null || fail "measuring the eager build"
"$headroom" launch history --label launch --db "$db" >"$work/history.out"
for figure in appInit sessionConfiguration sessionStart deferredStart outputInitialization \
  pressure.open @firstPreviewFrame @ready; do
  grep -q "^$figure " "$work/history.out" || { fail "the C example's history lacks $figure"; cat "$work/history.out"; }
done
status=0
"$headroom" launch compare launch eager --db "$db" >"$work/compare.out" || status=$?
[[ $show == --show ]] && cat "$work/history.out" "$work/compare.out"
[[ $status -eq 1 ]] || fail "compare launch eager: exit $status, expected 1"
grep -q "^@firstPreviewFrame .*regression" "$work/compare.out" \
  || { fail "the eager build's later first frame was not flagged"; cat "$work/compare.out"; }
"$work/launch" --report "$work/inprocess.json" "$work/frames.y4m" >/dev/null \
  || fail "the example outside measure"
grep -q "deferredStart" <("$headroom" launch report --from "$work/inprocess.json" --format md) \
  || fail "the in-process report lacks the deferred start"

if ((failures > 0)); then
  echo "c-library-checks: $failures failure(s)"
  exit 1
fi
echo "c-library-checks: all passed (check.c plain and under ASan, marks under attack, the C example deferred and eager)"
