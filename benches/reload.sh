#!/usr/bin/env bash
# Time to balance after a reload of a signed-in page (docs/PERFORMANCE.md, issue 10): starts the
# RELEASE server on a fresh SQLite database (scripts/test-server.sh), then benches/reload.mjs
# drives Chromium (playwright-core of web/, /usr/bin/chromium) through N reloads.
# Usage: cargo build --release -p server && (cd web && npm run build) && bash benches/reload.sh [N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BENCH_BIN:-$root/target/release/carthage}
[ -x "$bin" ] || { echo "build first: cargo build --release -p server"; exit 1; }
[ -f "$root/web/dist/index.html" ] || { echo "build the app first: (cd web && npm run build)"; exit 1; }
. "$root/scripts/test-server.sh"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(basename "$bin") at $base"
node "$root/benches/reload.mjs" "$base" "${1:-30}"
