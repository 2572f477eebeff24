#!/usr/bin/env bash
# The host service end to end, as a user drives it with curl: every route of API v1 and its
# errors, the event stream, the Unix socket, the bearer token beyond loopback, `advise` on a
# replayed trace, the bad options of `serve` and `advise`, the token as systemd hands it to the
# unit (LoadCredential=), the systemd unit (systemd-analyze verify, and its exposure score) and
# scripts/install.sh into a scratch prefix. With --show it prints each exchange
# (the transcript in docs/api.md comes from it). Usage: scripts/service-checks.sh HEADROOM [--show]
set -euo pipefail
headroom=${1:?usage: scripts/service-checks.sh PATH-TO-headroom [--show]}
show=${2:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/scratch.sh
source scripts/scratch.sh
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# serve ARGS...: starts `headroom serve` on a free loopback port; sets $url.
serve() {
  "$headroom" serve --interval 0.5 "$@" >"$work/serve.out" 2>"$work/serve.err" &
  pids+=($!)
  for _ in $(seq 600); do
    grep -q "serving on" "$work/serve.out" 2>/dev/null && break
    sleep 0.05
  done
  grep -q "serving on" "$work/serve.out" \
    || { echo "FAIL serve $*: not serving after 30 s: $(cat "$work/serve.err")"; exit 1; }
  url=http://$(awk '{print $3}' "$work/serve.out")
}

# call EXPECTED-STATUS METHOD PATH [BODY] [CURL-ARGS...]: one request; the body in $work/body.
call() {
  local expected=$1 method=$2 path=$3 body=${4:-}
  shift 3
  (($#)) && shift
  local args=(-s -o "$work/body" -w '%{http_code}' -X "$method" "$@")
  [[ -n $body ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
  local status
  status=$(curl "${args[@]}" "$url$path")
  if [[ -n $show ]]; then
    local shown=$body
    ((${#shown} > 240)) && shown="${shown:0:60}… (${#body} bytes)"
    echo "\$ curl -X $method $path${shown:+ -d '$shown'}"
    echo "$status"
    cat "$work/body"
    echo
  fi
  [[ $status == "$expected" ]] || fail "$method $path: HTTP $status, expected $expected: $(cat "$work/body")"
}
field() { jq -r "$1" "$work/body"; }

ladder='{"name":"people-detector","priority":5,"nominalFrameRate":10,"minFrameRate":2,"ladder":[{"name":"full","cost":150},{"name":"coarse-pyramid","cost":44},{"name":"small","cost":24}]}'
session='{"profile":"raspberry-pi-5","cameras":[{"id":"a","format":{"width":1920,"height":1080,"maxFrameRate":30}}],"outputs":[{"kind":"preview"}]}'

serve --listen 127.0.0.1:0 --socket "$work/api.sock" --lease 5
call 200 GET /v1/pressure
[[ $(field .version) == 1 ]] || fail "pressure: version $(field .version)"
call 201 POST /v1/clients "$ladder"
id=$(field .id)
[[ $(field .advice.ladderName) == full ]] || fail "register: advice $(cat "$work/body")"
call 200 GET "/v1/clients/$id/advice"
call 200 POST "/v1/clients/$id/report" '{"frames":10,"late":6,"dropped":0,"workSeconds":{"p50":0.15,"p95":0.16},"targetSeconds":0.1}'
[[ $(field .actingLevel) == critical ]] || fail "report: a late pipeline acts at $(field .actingLevel)"
call 200 GET /v1/clients
call 200 POST /v1/estimate "$session"
[[ $(field .fits) == true ]] || fail "estimate: $(cat "$work/body")"
# Errors: each names the field.
call 400 POST /v1/clients '{"name":"x","priority":5,"nominalFrameRate":10,"minFrameRate":20,"ladder":[{"name":"a","cost":1}]}'
[[ $(field .path) == minFrameRate ]] || fail "400 names $(field .path)"
call 400 POST /v1/clients '{"name":"x","priority":5,"nominalFrameRate":10,"minFrameRate":2,"ladder":[{"name":"a","cost":1}],"colour":"red"}'
[[ $(field .path) == colour ]] || fail "400 names $(field .path)"
call 400 POST /v1/clients '{"name":'
call 400 POST "/v1/clients/$id/report" '{"frames":10,"late":11,"workSeconds":[],"targetSeconds":0.1}'
[[ $(field .path) == late ]] || fail "400 names $(field .path)"
call 400 POST /v1/estimate '{"cameras":[{"id":"a","format":{"width":1920,"height":1080,"maxFrameRate":-1}}]}'
[[ $(field .path) == "cameras[0].format.maxFrameRate" ]] || fail "400 names $(field .path)"
call 400 POST /v1/estimate '{"profile":"/etc/passwd","cameras":[]}'
call 404 GET /v1/clients/0123456789abcdef/advice
call 404 GET /v1/nothing
call 405 PUT /v1/clients
call 413 POST /v1/clients "{\"name\":\"$(head -c 70000 /dev/zero | tr '\0' x)\"}"
call 400 GET /v1/events "" -H 'Last-Event-ID: soon'
# The event stream: resumed from the start, it holds the registration's advice.
# The stream does not end: read it until the advice is there (at most 30 s), then hang up.
curl -s -N --max-time 30 -H 'Last-Event-ID: 0' "$url/v1/events" >"$work/events" &
events=$!
for _ in $(seq 300); do
  grep -q "^event: advice" "$work/events" && grep -q "\"client\":\"$id\"" "$work/events" && break
  sleep 0.1
done
kill "$events" 2>/dev/null || true
wait "$events" 2>/dev/null || true
grep -q "^event: advice" "$work/events" || fail "events: no advice event: $(head -c 300 "$work/events")"
grep -q "\"client\":\"$id\"" "$work/events" || fail "events: not the client's"
[[ -n $show ]] && { echo "\$ curl -N -H 'Last-Event-ID: 0' /v1/events"; head -c 700 "$work/events"; echo; }
# The Unix socket serves the same API.
status=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$work/api.sock" http://localhost/v1/pressure)
[[ $status == 200 ]] || fail "unix socket: HTTP $status"
[[ $(stat -c %a "$work/api.sock") == 660 ]] || fail "unix socket mode $(stat -c %a "$work/api.sock")"
call 204 DELETE "/v1/clients/$id"
call 404 DELETE "/v1/clients/$id"
kill "${pids[-1]}"
wait "${pids[-1]}" || fail "serve: exit $? after SIGTERM, expected 0"
[[ ! -e $work/api.sock ]] || fail "the socket outlived the service"

# Bound beyond loopback: this machine's own requests (a loopback peer) may change state;
# from another address, changes need the token; reads stay open. The other address is this
# machine's first non-loopback one, as another machine would reach it.
printf 'a-token-for-the-checks-0123456789\n' >"$work/token"
chmod 600 "$work/token"
serve --listen 0.0.0.0:0 --token-file "$work/token"
wide=$url
url=${wide/0.0.0.0/127.0.0.1}
call 201 POST /v1/clients "$ladder"
outside=$(hostname -I 2>/dev/null | awk '{print $1}')
if [[ -n $outside ]]; then
  url=${wide/0.0.0.0/$outside}
  call 200 GET /v1/pressure
  call 401 POST /v1/clients "$ladder"
  call 401 POST /v1/clients "$ladder" -H 'Authorization: Bearer wrong-token-0123456789'
  call 201 POST /v1/clients "$ladder" -H 'Authorization: bearer a-token-for-the-checks-0123456789'
else
  echo "service-checks: note: no non-loopback address here; the token is checked by the unit tests alone"
fi
kill "${pids[-1]}"
serve --listen 0.0.0.0:0
wide=$url
url=${wide/0.0.0.0/127.0.0.1}
call 201 POST /v1/clients "$ladder"
if [[ -n $outside ]]; then
  url=${wide/0.0.0.0/$outside}
  call 403 POST /v1/clients "$ladder"
fi
kill "${pids[-1]}"

# The token as systemd hands it to the unit: the drop-in docs/service.md gives (LoadCredential=
# and --token-file %d/token) has systemd copy root's file into $CREDENTIALS_DIRECTORY, which
# systemd 252 makes mode 0500 with the copy mode 0400, both the service's user's own. That
# layout, and the drop-in's own ExecStart with this binary, a free port and a scratch socket.
dropin=$(awk '/^```ini$/ {inside = 1; block = ""; next}
  inside && /^```$/ {inside = 0; if (block ~ /LoadCredential=token:/) printf "%s", block; next}
  inside {block = block $0 "\n"}' docs/service.md)
[[ $dropin == *$'\nExecStart=\n'* ]] || fail "docs/service.md: no drop-in with LoadCredential=token: and ExecStart= cleared"
credentials=$work/credentials/headroom.service
mkdir -p "$credentials"
printf 'a-token-for-the-checks-0123456789\n' >"$credentials/token"
chmod 0400 "$credentials/token"
chmod 0500 "$credentials"
command=$(sed -n 's/^ExecStart=\(.\)/\1/p' <<<"$dropin")
command=${command//%d/$credentials}
command=${command/--listen 0.0.0.0:9464/--listen 0.0.0.0:0}
socket=/run/headroom/api.sock
command=${command//"$socket"/$work/credential.sock}
read -ra words <<<"$command"
[[ ${words[1]:-} == serve && $command == *"--token-file $credentials/token"* ]] ||
  fail "docs/service.md: the drop-in's ExecStart is not serve with --token-file %d/token: $command"
CREDENTIALS_DIRECTORY=$credentials serve "${words[@]:2}"
grep -q "need its token" "$work/serve.err" || fail "serve took no token from $credentials/token: $(cat "$work/serve.err")"
wide=$url
url=${wide/0.0.0.0/127.0.0.1}
call 201 POST /v1/clients "$ladder"
if [[ -n $outside ]]; then
  url=${wide/0.0.0.0/$outside}
  call 401 POST /v1/clients "$ladder"
  call 201 POST /v1/clients "$ladder" -H 'Authorization: Bearer a-token-for-the-checks-0123456789'
fi
kill "${pids[-1]}"
chmod 0700 "$credentials"
# Where systemd cannot put the copy on ramfs (newer systemd prefers tmpfs, and 252 falls back
# to it), the copy stays root's, mode 0400, with an ACL entry letting the service's user read
# it: stat shows mode 0440 (the ACL's mask in the group bits), yet only that user may read it.
# The same shape here: this user's file with an ACL entry for this user, which serve must take;
# an entry for another user it must refuse.
# acl FILE UID: gives UID read access to FILE through a POSIX ACL (user::r, user:UID:r, group::-,
# mask::r, other::-), as systemd's fd_add_uid_acl_permission leaves it; fails without ACLs.
acl() {
  python3 - "$1" "$2" <<'PYTHON'
import os, struct, sys
entries = [(0x01, 4, 0xFFFFFFFF), (0x02, 4, int(sys.argv[2])), (0x04, 0, 0xFFFFFFFF),
           (0x10, 4, 0xFFFFFFFF), (0x20, 0, 0xFFFFFFFF)]
value = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
os.setxattr(sys.argv[1], "system.posix_acl_access", value)
PYTHON
}
other_uid=65534
[[ $(id -u) == "$other_uid" ]] && other_uid=65533
cp "$credentials/token" "$credentials/token-acl"
cp "$credentials/token" "$credentials/token-other"
chmod 0400 "$credentials/token-acl" "$credentials/token-other"
if acl "$credentials/token-acl" "$(id -u)" 2>/dev/null && acl "$credentials/token-other" "$other_uid"; then
  [[ $(stat -c %a "$credentials/token-acl") == 440 ]] ||
    fail "an ACL entry left $credentials/token-acl mode $(stat -c %a "$credentials/token-acl"), not 440"
  serve --listen 127.0.0.1:0 --token-file "$credentials/token-acl"
  grep -q "serving on" "$work/serve.out" ||
    fail "serve refused a token only its own user may read (mode 0440 through an ACL entry for itself, as systemd hands it over on tmpfs): $(cat "$work/serve.err")"
  kill "${pids[-1]}" 2>/dev/null || true
  status=0
  "$headroom" serve --listen 127.0.0.1:0 --token-file "$credentials/token-other" >/dev/null 2>"$work/err" || status=$?
  [[ $status == 2 ]] || fail "serve took a token another user may read through an ACL: exit $status, $(cat "$work/err")"
else
  echo "service-checks: note: no POSIX ACLs where $work is; systemd's ACL form of a credential is not checked"
fi

# Bad options are exit 2 naming them.
expect2() {
  local needle=$1 status=0
  shift
  "$headroom" "$@" >"$work/out" 2>"$work/err" || status=$?
  [[ $status == 2 && ! -s $work/out ]] && grep -qF -- "$needle" "$work/err" ||
    fail "headroom $*: exit $status, stderr: $(cat "$work/err")"
}
chmod 644 "$work/token"
expect2 "expected a file only its owner may read (mode 0600), got mode 0644" serve --token-file "$work/token"
expect2 "missing: cannot read: No such file or directory" serve --token-file "$work/missing"
touch "$work/plain"
expect2 "--socket $work/plain: the path exists and is not a socket" serve --listen 127.0.0.1:0 --socket "$work/plain"
expect2 "--lease: expected a number" serve --lease 0
expect2 "--ladder: expected the pipeline's registration file" advise
printf '%s\n' '{"name":"x","priority":5,"nominalFrameRate":10,"minFrameRate":2,"ladder":[]}' >"$work/empty-ladder.json"
expect2 "empty-ladder.json: ladder: expected 1 to 16 steps" advise --ladder "$work/empty-ladder.json"

# advise on a replayed trace: the first advice at once, a change when the ramp forecasts heat.
printf '%s\n' "$ladder" >"$work/ladder.json"
head -n 12 examples/traces/thermal-ramp.jsonl >"$work/short.jsonl"
"$headroom" advise --ladder "$work/ladder.json" --trace "$work/short.jsonl" --json --interval 0.5 >"$work/advice" ||
  fail "advise: exit $?"
[[ $(wc -l <"$work/advice") -ge 2 ]] || fail "advise: $(cat "$work/advice")"
[[ $(head -n 1 "$work/advice" | jq -r .frameRate) == 10 ]] || fail "advise: first $(head -n 1 "$work/advice")"
[[ -n $show ]] && { echo "\$ headroom advise --ladder ladder.json --trace short.jsonl --json"; cat "$work/advice"; }

# The systemd unit, alone and with docs/service.md's drop-in, and the installer into a scratch
# prefix. The unit's exposure score may not rise above what docs/service.md states: dropping a
# protection fails here (offline: no systemd need run).
if command -v systemd-analyze >/dev/null; then
  verified=$(systemd-analyze verify dist/headroom.service 2>&1 | grep -v "Command /usr/local/bin/headroom is not executable" || true)
  [[ -z $verified ]] || fail "systemd-analyze verify: $verified"
  mkdir "$work/unit"
  { cat dist/headroom.service; printf '%s\n' "$dropin"; } >"$work/unit/headroom.service"
  verified=$(systemd-analyze verify "$work/unit/headroom.service" 2>&1 | grep -v "Command /usr/local/bin/headroom is not executable" || true)
  [[ -z $verified ]] || fail "systemd-analyze verify (with the drop-in): $verified"
  stated=$(sed -n 's/^scores the unit \*\*\([0-9.]*\)\*\*.*/\1/p' docs/service.md)
  score=$(systemd-analyze security --offline=true dist/headroom.service 2>/dev/null |
    sed -n 's/.*Overall exposure level for headroom.service: \([0-9.]*\).*/\1/p' || true)
  if [[ -z $stated ]]; then
    fail "docs/service.md states no exposure score (\"scores the unit **N**\")"
  elif [[ -z $score ]]; then
    echo "service-checks: note: systemd-analyze security --offline gave no score here; the unit's score is not checked"
  else
    awk -v score="$score" -v stated="$stated" 'BEGIN { exit !(score + 0 <= stated + 0) }' ||
      fail "systemd-analyze security: the unit scores $score, above the $stated docs/service.md states"
    [[ -n $show ]] && echo "\$ systemd-analyze security --offline=true dist/headroom.service → $score (at most $stated)"
  fi
fi
scripts/install.sh --prefix "$work/prefix" --from "$(dirname "$headroom")" --no-group >/dev/null
for file in bin/headroom lib/systemd/system/headroom.service share/bash-completion/completions/headroom \
  share/zsh/site-functions/_headroom share/fish/vendor_completions.d/headroom.fish \
  share/headroom/models/person-ssdlite.pb share/headroom/models/person-ssdlite-300.pbtxt; do
  [[ -s $work/prefix/$file ]] || fail "install: no $file"
done
grep -q "ExecStart=$work/prefix/bin/headroom serve" "$work/prefix/lib/systemd/system/headroom.service" ||
  fail "install: ExecStart not at the installed binary"
if command -v systemd-analyze >/dev/null; then
  verified=$(systemd-analyze verify "$work/prefix/lib/systemd/system/headroom.service" 2>&1 || true)
  [[ -z $verified ]] || fail "systemd-analyze verify (installed): $verified"
fi

((failures == 0)) || { echo "service-checks: $failures failed"; exit 1; }
echo "service-checks: every route, error, stream, socket, token, credential, advise and the unit: ok"
