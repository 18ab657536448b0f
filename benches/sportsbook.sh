#!/usr/bin/env bash
# Sportsbook under load (docs/PERFORMANCE.md "Sportsbook"): bets placed over HTTP at a fixed
# rate while the simulator keeps LIVE matches in play and pushes their updates to SUBSCRIBERS
# WebSocket clients; then `ledger verify`.
# Usage: bash benches/sportsbook.sh [sqlite|postgres] [rate/s] [seconds] [subscribers] [live]
# SB_TOPICS=live: every subscriber holds the whole live list (default: a screen, see the example).
# Needs: cargo build --release -p server --bin carthage --example sportsbook_load
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/sportsbook_load"
backend=${1:-sqlite}
rate=${2:-1000}
seconds=${3:-30}
subscribers=${4:-5000}
live=${5:-2000}
[ -x "$bin" ] && [ -x "$load" ] || { echo "build first: cargo build --release -p server --bin carthage --example sportsbook_load"; exit 1; }
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
case "$backend" in
  sqlite) url="sqlite://$work/sb.db" ;;
  postgres)
    admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
    db="sb_bench_$$"
    psql "$admin" -qc "CREATE DATABASE $db" > /dev/null
    url="${admin%/*}/$db" ;;
  *) echo "backend: sqlite or postgres"; exit 1 ;;
esac
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=warn JSON_LOGS=false \
  SPORTSBOOK_FEED=sim SPORTSBOOK_SIM_LIVE="$live" SPORTSBOOK_SIM_SEED=7 SPORTSBOOK_SIM_TICK_MS="${SPORTSBOOK_SIM_TICK_MS:-100}" ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $backend; $rate bets/s for $seconds s; $subscribers subscribers (${SB_TOPICS:-screen}); $live live matches; feed tick ${SPORTSBOOK_SIM_TICK_MS:-100} ms"
"$bin" migrate > /dev/null
"$bin" serve > "$work/server.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  if [ "$backend" = postgres ]; then psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" > /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
cpu0=$(awk '{print $14+$15}' /proc/$pid/stat)
SB_URL="http://127.0.0.1:$port" SB_TOPICS="${SB_TOPICS:-screen}" SB_RATE=$rate SB_SECONDS=$seconds SB_SUBSCRIBERS=$subscribers "$load"
cpu1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "# server CPU during the run (setup included): $(( (cpu1 - cpu0) / 100 )) s; RSS $(awk '/VmRSS/{print $2/1024 " MiB"}' /proc/$pid/status)"
kill "$pid"; wait "$pid" 2> /dev/null || true
"$bin" ledger verify | tail -n 3
