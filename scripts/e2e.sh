#!/usr/bin/env bash
# Starts the server on a fresh SQLite database in demo mode on a free port, runs the
# browser tests (web/scripts/e2e.mjs) against it, and always stops it.
set -euo pipefail
bin=${1:-./target/debug/carthage}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
export CARTHAGE_MODE=demo DATABASE_URL="sqlite://$tmp/e2e.db" BIND="127.0.0.1:$port" WEB_DIR="$root/web/dist" \
  PUBLIC_URL="http://127.0.0.1:$port" RUST_LOG=warn ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1
"$bin" seed > /dev/null
"$bin" serve > "$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  if curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1; then break; fi
  sleep 0.1
done
if ! curl -fs "http://127.0.0.1:$port/healthz" > /dev/null; then
  echo "server did not start:"; cat "$tmp/server.log"; exit 1
fi
cd "$root/web"
# Crash rounds run in real time (a 20x round lasts ~50 s): tests get 90 s before they fail.
E2E_TEST_TIMEOUT_MS=${E2E_TEST_TIMEOUT_MS:-90000} E2E_BASE_URL="http://127.0.0.1:$port" node scripts/e2e.mjs || { echo "--- server log ---"; tail -n 50 "$tmp/server.log"; exit 1; }
