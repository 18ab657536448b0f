#!/usr/bin/env bash
# Seamless provider wallet load: signed bet+win pairs (provider `demo`) against the release
# server, on SQLite and (when reachable) PostgreSQL; then `ledger verify`.
# Usage: bash benches/wallet.sh [seconds] [connections] [players]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/wallet_load"
secs=${1:-10}
conns=${2:-64}
players=${3:-64}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] && [ -x "$load" ] || { echo "build first: cargo build --release -p server --bin carthage --example wallet_load"; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# ${secs}s, $conns connections, $players players; each pair = signed bet of 0.100 TND + win of 0.100 TND"

run_backend() {
  local name=$1 url=$2 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false \
    ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1
  "$bin" migrate > /dev/null
  "$bin" serve > "/tmp/carthage-wallet-bench-$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
  echo "## $name"
  "$load" "http://127.0.0.1:$port" "$secs" "$conns" "$players"
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
  db="carthage_wbench_$$"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  run_backend postgres "${pg_admin%/*}/$db"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
fi
