#!/usr/bin/env bash
# Crash game under load: N players (default 10,000) bet and cash out over WebSockets against
# the release server, for a few rounds. Usage: bash benches/crash.sh [sqlite|postgres] [players] [rounds]
# CRASH_PERF=/tmp/crash.data records a server profile during the run.
# Needs: cargo build --release -p server --bin carthage --example crash_load
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/carthage"
load="$root/target/release/examples/crash_load"
backend=${1:-sqlite}
players=${2:-10000}
rounds=${3:-3}
[ -x "$bin" ] && [ -x "$load" ] || { echo "build first: cargo build --release -p server --bin carthage --example crash_load"; exit 1; }
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
case "$backend" in
  sqlite) url="sqlite://$work/crash.db" ;;
  postgres)
    admin=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
    db="crash_bench_$$"
    psql "$admin" -qc "CREATE DATABASE $db" > /dev/null
    url="${admin%/*}/$db" ;;
  *) echo "backend: sqlite or postgres"; exit 1 ;;
esac
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
export CARTHAGE_MODE=demo DATABASE_URL="$url" BIND="127.0.0.1:$port" RUST_LOG=info JSON_LOGS=false DATABASE_MAX_CONNECTIONS=16
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $backend; $players players; $rounds rounds"
"$bin" migrate > /dev/null
"$bin" serve > "$work/server.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  if [ "$backend" = postgres ]; then psql "$admin" -qc "DROP DATABASE IF EXISTS $db" > /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break; sleep 0.1; done
# The first start generates the 10M-round chain; wait for the first round.
for _ in $(seq 1 600); do grep -q "crash: new hash chain" "$work/server.log" && break; sleep 0.1; done
# CRASH_PERF=file.data: profile the server (perf record -g) while the players play.
if [ -n "${CRASH_PERF:-}" ]; then perf record -F 499 -g -o "$CRASH_PERF" -p "$pid" > /dev/null 2>&1 & perf_pid=$!; fi
CRASH_URL="ws://127.0.0.1:$port" CRASH_PLAYERS=$players CRASH_ROUNDS=$rounds "$load"
if [ -n "${CRASH_PERF:-}" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
echo "# server log (crash rounds):"
grep "crash: round settled" "$work/server.log" | sed 's/\x1b\[[0-9;]*m//g' | tail -n $((rounds + 3))
echo "# server CPU: $(ps -o times= -p "$pid") s"
"$bin" ledger verify | tail -n 3
