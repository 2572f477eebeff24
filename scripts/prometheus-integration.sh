#!/usr/bin/env bash
# Integration test of the exporter with a real Prometheus: two `headroom serve` instances on
# loopback, scraped by a Prometheus started with a temporary config; promtool on our exposition,
# the alert rules and their unit tests; the dashboard's metric names; abuse of the endpoint;
# clean shutdown on SIGTERM. Usage: scripts/prometheus-integration.sh PATH-TO-headroom
set -euo pipefail
headroom=${1:?usage: scripts/prometheus-integration.sh PATH-TO-headroom}
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  scripts/apt-install.sh prometheus
fi

# shellcheck source=scripts/scratch.sh
source scripts/scratch.sh
fail() { echo "FAIL prometheus-integration: $*" >&2; exit 1; }
step() { echo "-- $*"; }

# A loopback port nothing listens on.
free_port() {
  local port
  for port in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  fail "no free port from $1"
}

# start_serve NAME ARGS...: starts `headroom serve` on an ephemeral port; sets $port.
start_serve() {
  local name=$1
  shift
  "$headroom" serve --listen 127.0.0.1:0 --interval 0.5 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  eval "${name}_pid=$!"
  for _ in $(seq 100); do
    # The shell creates the output file asynchronously: it may not exist yet.
    port=$(sed -n 's/^serving on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/$name.out" 2>/dev/null || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { cat "$work/$name.err" >&2; fail "$name did not start"; }
  eval "${name}_port=$port"
}

step "two headroom serve instances"
mkdir -p "$work/textfile"
start_serve a --textfile "$work/textfile"
start_serve b --model
echo "   a on :$a_port, b on :$b_port"

step "exposition: promtool check metrics, OpenMetrics by Accept, textfile"
for _ in $(seq 50); do
  grep -q '^headroom_pressure_level ' <(curl -sf "http://127.0.0.1:$a_port/metrics") && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$a_port/metrics" >"$work/metrics.txt"
grep -q '^headroom_pressure_level [0-4]' "$work/metrics.txt" || fail "no headroom_pressure_level sample"
promtool check metrics <"$work/metrics.txt" || fail "promtool check metrics"
curl -sf "http://127.0.0.1:$b_port/metrics" | promtool check metrics || fail "promtool check metrics (b)"
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' -D "$work/om.headers" \
  "http://127.0.0.1:$a_port/metrics" >"$work/metrics.om"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$work/om.headers" \
  || fail "OpenMetrics content type"
[[ $(tail -n 1 "$work/metrics.om") == "# EOF" ]] || fail "OpenMetrics body does not end in # EOF"
[[ -f "$work/textfile/headroom.prom" ]] || fail "no textfile written"
promtool check metrics <"$work/textfile/headroom.prom" || fail "promtool check metrics (textfile)"
curl -sf "http://127.0.0.1:$a_port/status" | jq -e '.level' >/dev/null || fail "/status is not the reading JSON"
[[ $(curl -s "http://127.0.0.1:$a_port/healthz") == ok ]] || fail "/healthz"

step "alert rules: promtool check rules, promtool test rules"
promtool check rules dashboards/headroom-alerts.yml >/dev/null || fail "promtool check rules"
(cd dashboards && promtool test rules headroom-alerts.test.yml >/dev/null) || fail "promtool test rules"

step "dashboard and rules query only exported metrics"
exported=$(awk '/^# TYPE / { print $3; if ($4 == "histogram") { print $3 "_bucket"; print $3 "_sum"; print $3 "_count" } }' \
  "$work/metrics.txt" | sort -u)
queried=$( { jq -r '.. | objects | .expr? // empty' dashboards/headroom-grafana.json; \
  cat dashboards/headroom-alerts.yml; } | grep -o 'headroom_[a-z0-9_]*' | sort -u)
missing=$(comm -23 <(echo "$queried") <(echo "$exported"))
[[ -z $missing ]] || fail "queried but not exported: $missing"
echo "   $(echo "$queried" | wc -l) metric names queried, all exported"

step "abuse: unknown paths, oversized headers, 10000 idle connections"
[[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$a_port/nope") == 404 ]] || fail "unknown path"
[[ $(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "http://127.0.0.1:$a_port/metrics") == 405 ]] \
  || fail "POST"
big=$(head -c 65536 /dev/zero | tr '\0' a)
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "http://127.0.0.1:$a_port/metrics" || true)
[[ $code == 431 || $code == 000 ]] || fail "oversized header answered $code"
# More idle connections than serve's total limit (4096), from the scraper's own address: serve
# closes the oldest idle ones instead of refusing new ones, so /metrics answers at once.
ulimit -n 12288 2>/dev/null || fail "cannot raise the open-files limit to 12288 (run as root)"
idle=()
for _ in $(seq 10000); do
  exec {fd}<>"/dev/tcp/127.0.0.1/$a_port"
  idle+=("$fd")
done
# Answered, not refused: the time is printed, not judged (10 s only stops a hang). The body
# goes to a file first: `curl | grep -q` under pipefail failed now and then with curl's
# "Failed writing body" when grep had its line and left before curl wrote the rest.
started=$(date +%s%N)
curl -sS -f --max-time 10 -o "$work/crowded.txt" "http://127.0.0.1:$a_port/metrics" 2>"$work/curl.err" \
  && grep -q '^headroom_pressure_level ' "$work/crowded.txt" \
  || fail "/metrics did not answer beside 10000 idle connections: $(cat "$work/curl.err")"
took=$((($(date +%s%N) - started) / 1000000))
for fd in "${idle[@]}"; do exec {fd}>&-; done
echo "   /metrics answered beside 10000 idle connections (in $took ms)"

step "Prometheus scrapes both instances"
prometheus_port=$(free_port 19090)
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $PWD/dashboards/headroom-alerts.yml
scrape_configs:
  - job_name: headroom
    static_configs:
      - targets: ["127.0.0.1:$a_port", "127.0.0.1:$b_port"]
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
pids+=($!)
expected=$(printf '%s\n' "127.0.0.1:$a_port" "127.0.0.1:$b_port" | sort | tr '\n' ' ')
instances=""
for _ in $(seq 60); do
  instances=$(curl -sf "http://127.0.0.1:$prometheus_port/api/v1/query?query=headroom_pressure_level" \
    | jq -r '.data.result[].metric.instance' 2>/dev/null | sort | tr '\n' ' ' || true)
  [[ $instances == "$expected" ]] && break
  sleep 0.5
done
[[ $instances == "$expected" ]] \
  || { tail -n 20 "$work/prometheus.log" >&2; fail "Prometheus has headroom_pressure_level from: '$instances'"; }
curl -sf "http://127.0.0.1:$prometheus_port/api/v1/query?query=headroom_pressure_level" \
  | jq -r '.data.result[] | "   \(.metric.instance) headroom_pressure_level \(.value[1])"'
simulated=$(curl -sf "http://127.0.0.1:$prometheus_port/api/v1/query?query=headroom_simulated==1" \
  | jq -r '.data.result[].metric.instance')
[[ $simulated == "127.0.0.1:$b_port" ]] || fail "the --model instance is not marked simulated"

step "SIGTERM stops serve cleanly"
kill -TERM "$a_pid" "$b_pid"
for pid in "$a_pid" "$b_pid"; do
  status=0
  wait "$pid" || status=$?
  [[ $status -eq 0 ]] || fail "serve exited $status on SIGTERM"
done
if (exec 3<>"/dev/tcp/127.0.0.1/$a_port") 2>/dev/null; then fail "port still open after SIGTERM"; fi

echo "prometheus-integration: all passed"
