#!/usr/bin/env bash
# The Debian package as a user meets it: built by scripts/package.sh, checked by lintian (no
# errors; the warnings docs/install.md justifies), installed with dpkg -i, used — `headroom
# status`, the installed unit's own ExecStart serving /metrics and API v1 on its socket, a C
# program built with `pkg-config --cflags --libs headroom` against the installed library, the
# Python client from Debian's python3, the man pages — then purged, leaving no file behind
# (the file lists before and after compared). Needs root (dpkg); without it, says so and
# checks only the package's contents and lintian.
# Usage: scripts/package-checks.sh [--show]
set -euo pipefail
show=${1:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
cleanup() {
  [[ -n ${serve_pid:-} ]] && kill "$serve_pid" 2>/dev/null || true
  [[ -n ${gst_pid:-} ]] && kill "$gst_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
# within_10s COMMAND...: polls COMMAND every 0.1 s until it succeeds; false after 10 s.
within_10s() {
  local _
  for _ in $(seq 1 100); do "$@" && return 0; sleep 0.1; done
  return 1
}
# not COMMAND...: COMMAND fails.
not() { ! "$@"; }
# registered NAME: the installed service lists a client named NAME.
registered() {
  grep -q "$1" <(curl -s --unix-socket /run/headroom/api.sock http://localhost/v1/clients)
}

scripts/package.sh "$work/package" >"$work/built"
deb=$(grep '/headroom_[^/]*\.deb$' "$work/built" || true)
gstreamer_deb=$(grep '/gstreamer1\.0-headroom_[^/]*\.deb$' "$work/built" || true)
[[ -f $deb ]] || { echo "package-checks: no package built"; exit 1; }
[[ -f $gstreamer_deb ]] || {
  echo "package-checks: no gstreamer1.0-headroom package built (libgstreamer1.0-dev missing?)"
  exit 1
}
# lintian (14 s of CPU) reads the packages while they are installed and used below.
lintian --tag-display-limit 0 "$deb" "$gstreamer_deb" >"$work/lintian" 2>&1 &
lintian_pid=$!
# lintian_verdict: once lintian has finished, no errors (E:); the warnings are listed for
# docs/install.md.
lintian_verdict() {
  wait "$lintian_pid" || true
  [[ -n $show ]] && cat "$work/lintian"
  if grep -q '^E: ' "$work/lintian"; then fail "lintian errors:"; grep '^E: ' "$work/lintian"; fi
}
size=$(stat -c %s "$deb")
dpkg-deb -c "$deb" >"$work/contents"
[[ -n $show ]] && { echo "$deb: $((size / 1024)) KiB"; awk '{print $6}' "$work/contents"; dpkg-deb -f "$deb" Depends; }
for path in ./usr/bin/headroom ./usr/bin/headroomd ./lib/systemd/system/headroom.service \
  ./usr/share/man/man1/headroom.1.gz ./usr/share/man/man8/headroom.service.8.gz \
  ./usr/include/headroom.h ./usr/share/doc/headroom/copyright \
  ./usr/lib/python3/dist-packages/headroom_client/client.py ./usr/bin/headroom-person-model \
  ./usr/share/headroom/person-ssdlite-300.pbtxt ./usr/share/man/man1/headroom-person-model.1.gz; do
  grep -q " $path\$" "$work/contents" || fail "the package lacks $path"
done
grep -q "libheadroom.so.0$" "$work/contents" || fail "the package lacks libheadroom.so.0"
depends=$(dpkg-deb -f "$deb" Depends)
[[ $depends != *swift* ]] || fail "Depends names Swift: $depends"
for library in libsensors libsqlite3 libmosquitto1; do
  [[ $depends == *$library* ]] || fail "Depends lacks $library: $depends"
done
# The HTTP server is Headroom's own: no HTTP library, and so no TLS library it would bring.
for library in libmicrohttpd libgnutls; do
  [[ $depends != *$library* ]] || fail "Depends names $library: $depends"
done

# headroom and the library share one Swift runtime, the package's own (RUNPATH
# /usr/lib/MULTIARCH/headroom, every Swift library they need in it), with no Foundation proper
# and so no ICU; headroomd has the runtime linked in: it needs no Swift library and exports no
# symbols.
dpkg-deb -x "$deb" "$work/extracted"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
runtime_dir=/usr/lib/$multiarch/headroom
readelf -d "$work/extracted/usr/bin/headroomd" >"$work/dynamic"
if grep -E 'swift|Foundation|dispatch|Blocks|RUNPATH' "$work/dynamic"; then
  fail "headroomd links a shared Swift library or has a RUNPATH"
fi
daemon_exports=$(nm -D --defined-only --extern-only "$work/extracted/usr/bin/headroomd" | wc -l)
((daemon_exports <= 16)) || fail "headroomd exports $daemon_exports symbols (the runtime's, unless --no-export-dynamic)"
for binary in usr/bin/headroom "usr/lib/$multiarch/libheadroom.so.0"; do
  readelf -d "$work/extracted/$binary" >"$work/dynamic"
  grep -q "runpath: \[$runtime_dir\]" "$work/dynamic" || fail "$binary's RUNPATH is not $runtime_dir"
  for library in $(sed -n 's/.*Shared library: \[\(.*swift.*\|.*Foundation.*\|.*dispatch.*\|.*Blocks.*\)\]/\1/p' "$work/dynamic"); do
    [[ -f $work/extracted$runtime_dir/$library ]] || fail "$binary needs $library, which the package lacks"
  done
  if grep -e 'libFoundation\.so' -e FoundationICU -e FoundationInternationalization "$work/dynamic"; then
    fail "$binary links Foundation proper (and its ICU)"
  fi
done
# The library is small and exports the header's functions, nothing else.
library=$work/extracted/usr/lib/$multiarch/libheadroom.so.0
(($(stat -c %s "$library") <= 4 * 1024 * 1024)) || fail "libheadroom.so.0 is $(stat -c %s "$library") bytes, over 4 MiB"
exported=$(nm -D --defined-only --extern-only "$library" | awk '{print $3}' | sort | tr '\n' ' ')
declared=$(grep -o 'headroom_[a-z_]*(' include/headroom.h | tr -d '(' | sort -u | tr '\n' ' ')
[[ $exported == "$declared" ]] || fail "libheadroom exports [$exported], the header declares [$declared]"
# The daemon links none of the pipeline's libraries.
if ldd "$work/extracted/usr/bin/headroomd" | grep -e opencv -e libX11 -e protobuf; then
  fail "headroomd links OpenCV or what it pulls in"
fi

dpkg-deb -c "$gstreamer_deb" >"$work/gstreamer-contents"
[[ -n $show ]] && { echo "$gstreamer_deb"; awk '{print $6}' "$work/gstreamer-contents"; dpkg-deb -f "$gstreamer_deb" Depends; }
plugins=./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/gstreamer-1.0
for path in "$plugins/libgstheadroomtracer.so" "$plugins/python/headroomrate.py" \
  ./usr/share/doc/gstreamer1.0-headroom/copyright; do
  grep -q " $path\$" "$work/gstreamer-contents" || fail "gstreamer1.0-headroom lacks $path"
done
[[ $(dpkg-deb -f "$gstreamer_deb" Depends) == *libgstreamer1.0-0*headroom\ \(=* ]] \
  || fail "gstreamer1.0-headroom's Depends: $(dpkg-deb -f "$gstreamer_deb" Depends)"

if [[ $(id -u) -ne 0 ]]; then
  lintian_verdict
  echo "package-checks: note: not root, so the package was not installed and purged"
  ((failures == 0)) && { echo "package-checks: the package's contents and lintian passed"; exit 0; }
  exit 1
fi

# What the package may touch: everything it installs, and systemd's and dpkg-helper's state.
listing() {
  { find /usr /lib /etc /var/lib/systemd /run/headroom -xdev 2>/dev/null || true; } \
    | grep -v -e '^/etc/group' -e '^/etc/gshadow' -e '^/etc/.pwd.lock' -e '^/etc/ld.so.cache' \
    | sort
}
dpkg -s gstreamer1.0-headroom >/dev/null 2>&1 && dpkg --purge gstreamer1.0-headroom >/dev/null
dpkg -s headroom >/dev/null 2>&1 && dpkg --purge headroom >/dev/null
listing >"$work/before"
dpkg -i "$deb" "$gstreamer_deb" >"$work/dpkg-i.log" 2>&1 || { fail "dpkg -i"; cat "$work/dpkg-i.log"; }
# Without systemd (a container), the postinst says the service was not started, and how to.
if [[ ! -d /run/systemd/system ]]; then
  grep -q "not started: systemd is not running here; start it by hand with 'headroom serve'" \
    "$work/dpkg-i.log" || fail "dpkg -i without systemd did not say the service was not started"
fi
for package in headroom gstreamer1.0-headroom; do
  [[ $(dpkg-query -W -f='${Status}' "$package") == "install ok installed" ]] || fail "$package not installed"
done
getent group headroom >/dev/null || fail "no system group headroom after install"

/usr/bin/headroom status >"$work/status" 2>&1 || fail "the installed headroom status: $(cat "$work/status")"
grep -q "level" "$work/status" || fail "headroom status printed no level"

# The unit's own command line, as systemd would start it (its runtime directory made first).
command=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/headroom.service)
[[ $command == /usr/bin/headroom\ serve* ]] || fail "ExecStart: $command"
mkdir -p /run/headroom
# shellcheck disable=SC2086  # ExecStart's words
$command >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
within_10s test -S /run/headroom/api.sock || true
code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket /run/headroom/api.sock http://localhost/v1/pressure)
[[ $code == 200 ]] || fail "the installed service: /v1/pressure on its socket answered $code: $(cat "$work/serve.err")"
# `headroom serve` became headroomd, in the same process, and maps no OpenCV; without --mqtt
# neither libmosquitto nor OpenSSL (opened with dlopen by the first connection).
[[ $(readlink "/proc/$serve_pid/exe") == /usr/bin/headroomd ]] \
  || fail "the installed service runs $(readlink "/proc/$serve_pid/exe"), not /usr/bin/headroomd"
if grep -q opencv "/proc/$serve_pid/maps"; then fail "the installed service maps OpenCV"; fi
if grep -E -q "libmosquitto|libssl|libcrypto" "/proc/$serve_pid/maps"; then
  fail "the installed service maps libmosquitto or OpenSSL without --mqtt"
fi
# Its tasks ran on its own threads, not libdispatch's (whose manager wakes every second).
threads=$(cat /proc/"$serve_pid"/task/*/comm | sort | uniq -c | tr -s ' \n' ' ')
[[ $threads == *headroom-tasks* ]] || fail "the installed service runs no headroom-tasks thread: $threads"
[[ $threads != *qos* ]] || fail "the installed service runs libdispatch's worker threads: $threads"
# Resident at rest, as `scripts/bench-metrics.sh` measures it beside node_exporter.
echo "package-checks: the installed service: $(grep VmRSS "/proc/$serve_pid/status" | tr -s ' \t' ' ')"
# The installed binaries find every library, the Swift runtime in the package's directory.
for binary in /usr/bin/headroom /usr/bin/headroomd "/usr/lib/$multiarch/libheadroom.so.0"; do
  ldd "$binary" >"$work/ldd"
  if grep 'not found' "$work/ldd"; then fail "installed $binary lacks a library"; fi
  if grep -E 'swift|Foundation' "$work/ldd" | grep -v " => $runtime_dir/"; then
    fail "installed $binary takes a Swift library from outside $runtime_dir"
  fi
done
# grep reads a process substitution, not a pipe: under pipefail `curl | grep -q` fails when grep
# has its line and leaves before curl has written the rest (CI saw it).
grep -q '^headroom_' <(curl -s --unix-socket /run/headroom/api.sock http://localhost/metrics) \
  || fail "the installed service: no headroom_ metrics"
/usr/bin/python3 - <<'EOF' || fail "the installed Python client against the installed service"
from headroom_client import Client, LadderStep
client = Client("unix:/run/headroom/api.sock")
advice = client.register("package-check", priority=5, nominal_frame_rate=10, min_frame_rate=2,
                         ladder=[LadderStep("full", 1.0)])
assert not advice.is_fallback, advice.reason
client.close()
EOF
# GStreamer finds gstreamer1.0-headroom's pieces by itself (no GST_PLUGIN_PATH; a registry of
# our own, so nothing stale): the element registers with the installed service and leaves it,
# and the tracer times a launch under the installed headroom.
gst=(env -u GST_PLUGIN_PATH -u PYTHONPATH GST_REGISTRY="$work/registry.bin")
for feature in headroomrate headroomtracer; do
  "${gst[@]}" gst-inspect-1.0 "$feature" >"$work/inspect.out" 2>&1 \
    || fail "gst-inspect-1.0 $feature: $(tail -3 "$work/inspect.out")"
done
"${gst[@]}" gst-launch-1.0 -q videotestsrc is-live=true ! video/x-raw,framerate=30/1 \
  ! headroomrate service=unix:/run/headroom/api.sock client-name=package-check-gst ! fakesink \
  >"$work/gst-launch.out" 2>&1 &
gst_pid=$!
within_10s registered package-check-gst || fail "headroomrate never registered with the installed service: $(cat "$work/gst-launch.out")"
# Stopped with SIGINT (gst-launch-1.0 sends EOS, then ends): the element leaves the service.
kill -INT "$gst_pid" 2>/dev/null || true
timeout 20 tail --pid="$gst_pid" -f /dev/null || fail "gst-launch-1.0 did not end on SIGINT"
wait "$gst_pid" 2>/dev/null || true
gst_pid=
within_10s not registered package-check-gst || fail "headroomrate stayed registered after its pipeline ended"
GST_TRACERS=headroom "${gst[@]}" HOME="$work/home" /usr/bin/headroom launch measure --runs 1 \
  --label package --db "$work/launch.sqlite3" -- gst-launch-1.0 videotestsrc num-buffers=5 ! fakesink \
  >"$work/measure.out" 2>&1 && grep -q ': ready at ' "$work/measure.out" \
  || fail "the installed tracer under the installed headroom launch measure: $(cat "$work/measure.out")"

kill "$serve_pid"
wait "$serve_pid" || true
serve_pid=
rmdir /run/headroom 2>/dev/null || true

# A C program against the installed library, through pkg-config.
cat >"$work/estimate.c" <<'EOF'
#include <headroom.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    char out[65536];
    const char *session = "{\"cameras\": [{\"id\": \"c\", \"format\": {\"width\": 640, "
                          "\"height\": 480, \"maxFrameRate\": 30}}], \"outputs\": []}";
    if (headroom_estimate(session, out, sizeof out) != HEADROOM_OK) {
        fprintf(stderr, "%s\n", headroom_last_error());
        return 1;
    }
    return strstr(out, "hardwareCost") ? 0 : 1;
}
EOF
# shellcheck disable=SC2046  # pkg-config's words
cc -Wall -Werror -o "$work/estimate" "$work/estimate.c" $(pkg-config --cflags --libs headroom) \
  && "$work/estimate" || fail "a C program built with pkg-config against the installed library"

# The person detector's model: not in the package; its installed command names itself, and
# installs a verified copy found on this machine (setup.sh's) without downloading.
nowhere=(env HOME="$work/home" XDG_DATA_HOME="$work/models" XDG_DATA_DIRS="$work/none")
"${nowhere[@]}" headroom-person-model --find >/dev/null 2>"$work/find.err" \
  && fail "headroom-person-model --find found a model in an empty home"
grep -q "install it with headroom-person-model$" "$work/find.err" \
  || fail "headroom-person-model --find: $(cat "$work/find.err")"
vtest=/usr/share/doc/opencv-doc/examples/data/vtest.avi
status=0
"${nowhere[@]}" /usr/bin/headroom run --source "$vtest" --detector person-ssd --out "$work/no-model" >/dev/null \
  2>"$work/run.err" || status=$?
[[ $status == 2 ]] && grep -q "install it with headroom-person-model$" "$work/run.err" \
  || fail "the installed headroom without the model: exit $status, $(cat "$work/run.err")"
if installed=$(scripts/person-model.sh --find 2>/dev/null); then
  env HOME="$work/home" XDG_DATA_HOME="$work/models" XDG_DATA_DIRS="${installed%/headroom/models}" \
    headroom-person-model >"$work/model.out" 2>&1 || fail "headroom-person-model: $(cat "$work/model.out")"
  grep -q "(a copy of $installed/person-ssdlite.pb)" "$work/model.out" \
    || fail "headroom-person-model did not copy the installed model: $(cat "$work/model.out")"
  "${nowhere[@]}" /usr/bin/headroom run --source "$vtest" --detector person-ssd --seconds 2 \
    --clock virtual --out "$work/run" --json >"$work/run.json" 2>"$work/run.err" \
    && grep -q '"detector" *: *"person-ssd"' "$work/run.json" \
    || fail "the installed headroom with the model it installed: $(cat "$work/run.err")"
else
  echo "package-checks: note: no person model on this machine (scripts/person-model.sh), so headroom-person-model installed none"
fi
grep -q "install the model of Headroom.s neural person" \
  <(man -P cat headroom-person-model 2>/dev/null) || fail "man headroom-person-model"

grep -q "headroom estimate" <(man -P cat headroom 2>/dev/null) || fail "man headroom"
grep -q "Type=notify" <(man -P cat headroom.service 2>/dev/null) || fail "man headroom.service"
[[ -n $show ]] && { man -P cat headroom 2>/dev/null | head -30 || true; }

dpkg --purge gstreamer1.0-headroom headroom >"$work/purge.log" 2>&1 || { fail "dpkg --purge"; cat "$work/purge.log"; }
listing >"$work/after"
if ! diff "$work/before" "$work/after" >"$work/left"; then
  fail "the purge left a difference:"; cat "$work/left"
fi

lintian_verdict
if ((failures > 0)); then
  echo "package-checks: $failures failure(s)"
  exit 1
fi
echo "package-checks: $(basename "$deb") ($((size / 1024)) KiB) and $(basename "$gstreamer_deb"): lintian without errors, installed, served, governed a gst-launch line, linked, purged clean"
