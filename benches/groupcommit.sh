#!/usr/bin/env bash
# Issue 21 §2 in ONE run (docs/PERFORMANCE.md "PostgreSQL group commit"): pgbench tpcb-like
# (8 clients, 2 threads, prepared) on a database of its own, then, on the same machine in the
# same window, signed provider wallet calls (bet + win pairs of provider `demo`, closed loop
# and an open loop at a fixed rate) on SQLite and PostgreSQL, then the settlement of 100,000
# sports bets on both. Loopback only; bounded.
# Usage: bash benches/groupcommit.sh [seconds] [connections] [players] [pairs/s offered]
#   BENCH_WRITERS="1 2 4 8": also a short closed-loop run per number of ledger writers on
#   PostgreSQL (LEDGER_WRITERS); BENCH_SKIP_SETTLE=1 skips the settlement.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/wallet_load"
settle="$root/target/release/examples/settle_bench"
secs=${1:-30}
conns=${2:-64}
players=${3:-64}
rate=${4:-1000}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] && [ -x "$load" ] && [ -x "$settle" ] || {
  echo "build first: cargo build --release -p server -p betting --bin carthage --example wallet_load --example settle_bench"; exit 1; }
. "$root/benches/pgbench.sh"
machine_line
pgbench_tpcb "$secs" "$pg_admin" gc

start_server() {
  local name=$1 url=$2 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false \
    ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1 SPORTSBOOK_FEED=off
  "$bin" migrate > /dev/null
  "$bin" serve > "/tmp/carthage-gc-bench-$name.log" 2>&1 &
  server_pid=$!
  server_base="http://127.0.0.1:$port"
  for _ in $(seq 1 100); do curl -fs "$server_base/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
}

stop_server() {
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
  "$bin" ledger verify | tail -n 1
}

wallet() {
  local name=$1 url=$2
  start_server "$name" "$url"
  echo "## $name: provider wallet, closed loop, $conns connections, $players players, ${secs}s (LEDGER_WRITERS=${LEDGER_WRITERS:-default})"
  "$load" "$server_base" "$secs" "$conns" "$players"
  echo "## $name: provider wallet, open loop at $rate pairs/s, ${secs}s"
  "$load" "$server_base" "$secs" "$conns" "$players" "$rate"
  stop_server
}

pg_db() {
  local db="carthage_gcbench_$$_$1"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  echo "${pg_admin%/*}/$db"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wallet sqlite "sqlite://$tmp/bench.db"
url=$(pg_db w)
wallet postgres "$url"
psql "$pg_admin" -qc "DROP DATABASE IF EXISTS ${url##*/} WITH (FORCE)"

for n in ${BENCH_WRITERS:-}; do
  url=$(pg_db "w$n")
  export LEDGER_WRITERS=$n
  start_server "postgres-w$n" "$url"
  echo "## postgres, LEDGER_WRITERS=$n: provider wallet, closed loop, $conns connections, 10 s"
  "$load" "$server_base" 10 "$conns" "$players"
  stop_server
  unset LEDGER_WRITERS
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS ${url##*/} WITH (FORCE)"
done

if [ -z "${BENCH_SKIP_SETTLE:-}" ]; then
  for backend in sqlite postgres; do
    echo "## $backend: place and settle 100,000 sports bets (settle_bench 100000 1000 64)"
    BENCH_PG_URL="$pg_admin" "$settle" "$backend" 100000 1000 64 2>&1 | grep -vE '^\s*$' | tail -n 6
  done
fi
