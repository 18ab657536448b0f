#!/usr/bin/env bash
# Load benchmark of the release server: balance reads and ledger debits, on SQLite and
# (when reachable) PostgreSQL. Usage: make bench   (or: bash benches/run.sh [seconds])
# Needs wrk (Debian package `wrk`). Loopback only; bounded duration.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
secs=${1:-10}
conns=${BENCH_CONNECTIONS:-32}
players=${BENCH_PLAYERS:-32}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
command -v wrk > /dev/null || { echo "wrk is required: apt-get install wrk"; exit 1; }
[ -x "$bin" ] || { echo "build first: cargo build --release -p server"; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# wrk: 2 threads, $conns connections, ${secs}s per run; $players players"

json() { python3 -c "import sys,json; d=json.load(sys.stdin); print($1)"; }
summarize() {
  python3 -c '
import sys, json
d = json.load(sys.stdin)
s, p = d["summary"], d["latencyPercentiles"]
codes = d.get("statusCodeDistribution", {})
print("   rate %.0f req/s, success %.4f, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, statuses %s" % (
    s["requestsPerSec"], s["successRate"], p["p50"] * 1000, p["p90"] * 1000, p["p99"] * 1000, codes))'
}
tmp_bodies=$(mktemp -d)
trap 'rm -rf "$tmp_bodies"' EXIT

run_backend() {
  local name=$1 url=$2
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false
  "$bin" seed > /dev/null
  local ids=()
  for i in $(seq 1 "$players"); do
    local out
    out=$("$bin" user create --role player --email "bench$i@bench.test" --password "Bench1234" 2>/dev/null || true)
    ids+=("$(echo "$out" | sed -n 's/created user \([0-9]*\).*/\1/p')")
  done
  for id in "${ids[@]}"; do "$bin" wallet adjust --user "$id" --amount 1000000 --reason "benchmark funding" > /dev/null; done
  "$bin" serve > /tmp/carthage-bench-$name.log 2>&1 &
  local pid=$!
  trap "kill $pid 2>/dev/null || true" RETURN
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
  local base="http://127.0.0.1:$port"
  local player_token admin_token
  player_token=$(curl -s "$base/api/user/login" -H 'content-type: application/json' -d '{"login":"bench1@bench.test","password":"Bench1234"}' | json 'd["result"]["token"]')
  # The console signs in with the demo admin's authenticator code (docs/BACKOFFICE.md).
  admin_token=$(curl -s "$base/api/staff/login" -H 'content-type: application/json' \
    -d "{\"login\":\"admin@carthage.local\",\"password\":\"Admin1234\",\"code\":\"$(python3 "$root/scripts/totp.py" INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB)\"}" | json 'd["result"]["token"]')
  echo
  echo "## $name: balance reads (GET /api/user/balance)"
  BENCH_TOKEN=$player_token wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$root/benches/balance.lua" "$base/api/user/balance" \
    | grep -E 'Requests/sec|50%|90%|99%|envelope-failures|Non-2xx|Socket errors'
  echo "## $name: ledger debits (POST /api/admin/wallet/adjust, -0.001 TND over $players players)"
  BENCH_TOKEN=$admin_token BENCH_USERS=$(IFS=,; echo "${ids[*]}") BENCH_RUN="$name-$(date +%s)" \
    wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$root/benches/debit.lua" "$base" \
    | grep -E 'Requests/sec|50%|90%|99%|envelope-failures|Non-2xx|Socket errors'
  if command -v oha > /dev/null; then
    echo "## $name: fixed rate (oha, latency corrected): balance reads at ${READ_RATE:=5000}/s"
    oha -z "${secs}s" -c "$conns" -q "$READ_RATE" --latency-correction --no-tui --output-format json \
      -H "Authorization: Bearer $player_token" "$base/api/user/balance" | summarize
    echo "## $name: fixed rate (oha, latency corrected): debits at ${DEBIT_RATE:=1000}/s"
    local bodies="$tmp_bodies/$name.txt"
    python3 - "$bodies" "$DEBIT_RATE" "$secs" "${ids[*]}" "$name" <<'PY'
import sys, random
path, rate, secs, ids, name = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(), sys.argv[5]
with open(path, "w") as f:
    for i in range(rate * secs * 20):
        f.write('{"userId":%s,"kind":"real","amount":"-0.001","reason":"benchmark debit","idempotencyKey":"oha-%s-%d-%d"}\n'
                % (random.choice(ids), name, random.getrandbits(40), i))
PY
    oha -z "${secs}s" -c "$conns" -q "$DEBIT_RATE" --latency-correction --no-tui --output-format json -m POST \
      -H "Authorization: Bearer $admin_token" -H 'content-type: application/json' -Z "$bodies" \
      "$base/api/admin/wallet/adjust" | summarize
  else
    echo "(oha not installed: fixed-rate runs skipped; cargo install oha)"
  fi
  curl -s "$base/metrics" | grep 'ledger_postings_total{type="manual_adjustment"' || true
  kill $pid; wait $pid 2>/dev/null || true
  "$bin" ledger verify | tail -n 1
}

backends=${BENCH_BACKENDS:-sqlite postgres}
if [[ " $backends " == *" sqlite "* ]]; then
  tmp=$(mktemp -d)
  run_backend sqlite "sqlite://$tmp/bench.db"
  rm -rf "$tmp"
fi
if [[ " $backends " != *" postgres "* ]]; then
  :
elif psql "$pg_admin" -qAtc 'SELECT 1' > /dev/null 2>&1; then
  db="carthage_bench_$$"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  pg_url="${pg_admin%/*}/$db"
  run_backend postgres "$pg_url"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
else
  echo "PostgreSQL not reachable at $pg_admin: skipped"
fi
