#!/usr/bin/env bash
# Starts the server on a fresh SQLite database in demo mode on a free port, runs the
# browser tests (web/scripts/e2e.mjs) against it, and always stops it.
set -euo pipefail
bin=${1:-./target/debug/carthage}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/test-server.sh"
cd "$root/web"
# Crash rounds run in real time (a 20x round lasts ~50 s): tests get 90 s before they fail.
E2E_TEST_TIMEOUT_MS=${E2E_TEST_TIMEOUT_MS:-90000} E2E_BASE_URL="$base" node scripts/e2e.mjs || { echo "--- server log ---"; tail -n 50 "$tmp/server.log"; exit 1; }
