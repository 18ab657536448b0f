# Sourced by scripts/e2e.sh and scripts/contract.sh: starts `$bin serve` in demo mode on a
# fresh SQLite database in a temporary folder on a free port, waits for /healthz, and stops
# it (and removes the folder) when the calling script exits. Sets $tmp, $port, $base, $pid.
# Every browser test signs up from 127.0.0.1: the per-IP message limit is raised for them. The
# crash curve runs 4× faster (same crash points) so a long round cannot outlast a test's budget,
# and the virtual races' timetable 10× faster (same draws and prices: docs/VIRTUALS.md).
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
export CARTHAGE_MODE=demo DATABASE_URL="sqlite://$tmp/test.db" BIND="127.0.0.1:$port" WEB_DIR="$root/web/dist" \
  PUBLIC_URL="$base" RUST_LOG=warn ARGON2_MEMORY_KIB=4096 ARGON2_ITERATIONS=1 \
  MESSAGES_PER_IP_BURST=1000 CRASH_SPEED=4 VIRTUALS_SPEED=10
"$bin" seed > /dev/null
"$bin" serve > "$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  if curl -fs "$base/healthz" > /dev/null 2>&1; then break; fi
  sleep 0.1
done
if ! curl -fs "$base/healthz" > /dev/null; then
  echo "server did not start:"; cat "$tmp/server.log"; exit 1
fi
