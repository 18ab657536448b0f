#!/usr/bin/env bash
# Issue 21 "done when": balance reads and bet+win pairs per second with 1, 2 and 3 instances on
# PostgreSQL (docs/PERFORMANCE.md "Several instances"). For each N: a fresh database, a
# cluster of N release instances behind `carthage balance` (scripts/cluster.sh), then through
# the balancer a closed loop of signed provider wallet bet+win pairs and a closed loop of
# player balance reads (`GET /api/user/balance`), then `ledger verify`. The pgbench figure of
# the same window comes first, as in benches/groupcommit.sh. Loopback only; bounded.
# Usage: bash benches/instances.sh [seconds] [connections] [players] [instance counts]
#   e.g. bash benches/instances.sh 20 64 64 "1 2 3"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/wallet_load"
secs=${1:-20}
conns=${2:-64}
players=${3:-64}
counts=${4:-1 2 3}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] && [ -x "$load" ] || {
  echo "build first: cargo build --release -p server --bin carthage --example wallet_load"; exit 1; }
. "$root/benches/pgbench.sh"
machine_line
pgbench_tpcb "$secs" "$pg_admin" inst

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
export BIND="127.0.0.1:$port" BASE_PORT=$((20000 + RANDOM % 20000)) CLUSTER_DIR="/tmp/carthage-instances-$$" \
  CARTHAGE_BIN="$bin" RUST_LOG=warn JSON_LOGS=false ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1 SPORTSBOOK_FEED=off
base="http://$BIND"
cleanup() { bash "$root/scripts/cluster.sh" stop > /dev/null 2>&1 || true; }
trap cleanup EXIT

for n in $counts; do
  db="inst_bench_${n}_$$"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  export DATABASE_URL="${pg_admin%/*}/$db"
  bash "$root/scripts/cluster.sh" start "$n" > /dev/null
  echo "## $n instance(s) behind carthage balance, PostgreSQL"
  "$load" "$base" "$secs" "$conns" "$players"
  LOAD=balance "$load" "$base" "$secs" "$conns" "$players"
  bash "$root/scripts/cluster.sh" stop > /dev/null
  CARTHAGE_MODE=demo "$bin" ledger verify 2>&1 | tail -1
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
done
