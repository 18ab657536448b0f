#!/usr/bin/env bash
# Game provider wallet callbacks per second, per adapter and its signature scheme
# (docs/PERFORMANCE.md "Provider callbacks"): bet + win pairs sent through each provider's
# fake client (signed in its dialect, over HTTP) against the release server in demo mode,
# on SQLite and (when reachable) PostgreSQL; then `ledger verify`.
# Usage: bash benches/provider_callbacks.sh [seconds per provider] [connections] [providers,…]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/provider_callbacks_load"
seconds=${1:-10}
conns=${2:-32}
only=${3:-}
pg_admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] && [ -x "$load" ] || { echo "build first: cargo build --release -p server --bin carthage && cargo build --release -p providers --example provider_callbacks_load"; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $seconds s per provider, $conns connections (one player each), bet + win pairs of 0.010 TND"

run_backend() {
  local name=$1 url=$2 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" PUBLIC_URL="http://127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false \
    ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1 MESSAGES_PER_IP_BURST=100000 SPORTSBOOK_FEED=off
  "$bin" migrate > /dev/null
  "$bin" serve > "/tmp/carthage-provider-bench-$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
  echo "## $name"
  "$load" "http://127.0.0.1:$port" "$seconds" "$conns" $only
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
  db="carthage_pbench_$$"
  psql "$pg_admin" -qc "CREATE DATABASE $db"
  run_backend postgres "${pg_admin%/*}/$db"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
fi
