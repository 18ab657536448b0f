#!/usr/bin/env bash
# Signed payment callbacks handled per second (docs/PERFORMANCE.md "Payments: signed
# callbacks"): sandbox deposits prepared over HTTP, then one signed success callback each,
# against the release server on SQLite and (when reachable) PostgreSQL; then `ledger verify`.
# Usage: bash benches/callbacks.sh [intents] [connections]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/callbacks_load"
intents=${1:-5000}
conns=${2:-64}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] && [ -x "$load" ] || { echo "build first: cargo build --release -p server --bin carthage && cargo build --release -p payments --example callbacks_load"; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $intents deposits of 10 TND, one signed success callback each, $conns connections"

run_backend() {
  local name=$1 url=$2 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false \
    ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1 DEMO_CREDIT=0 MESSAGES_PER_IP_BURST=100000
  "$bin" migrate > /dev/null
  "$bin" serve > "/tmp/carthage-callbacks-bench-$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
  echo "## $name"
  SERVER_PID=$pid "$load" "http://127.0.0.1:$port" "$intents" "$conns"
  kill $pid; wait $pid 2>/dev/null || true
  "$bin" ledger verify | tail -n 1
}

backends=${BENCH_BACKENDS:-sqlite postgres}
if [[ " $backends " == *" sqlite "* ]]; then
  tmp=$(mktemp -d)
  run_backend sqlite "sqlite://$tmp/bench.db"
  rm -rf "$tmp"
fi
if [[ " $backends " == *" postgres "* ]] && psql "$pg_admin" -qAtc 'SELECT 1' > /dev/null 2>&1; then
  db="carthage_cbench_$$"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  run_backend postgres "${pg_admin%/*}/$db"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
fi
