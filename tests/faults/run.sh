#!/usr/bin/env bash
# Fault tests of issue 21 §4 (docs/PERFORMANCE.md "Fault tests (issue 21 §4)"): kill -9 under
# load on SQLite and on a 3-instance PostgreSQL cluster, a PostgreSQL restart under two
# instances (a private server on FAULTS_PG_PORT, default 55432: the shared one is never
# touched), and a full SQLite disk (a loop-mounted ext4 image: needs root).
#
#   bash tests/faults/run.sh [kill-sqlite] [kill-pg] [pg-restart] [disk-full]   (default: all four)
#
# Uses CARTHAGE_BIN (default target/release/carthage, else target/debug/carthage), psql and
# FAULTS_PG_ADMIN (default postgres://postgres@127.0.0.1:5432/postgres) for kill-pg. Each
# scenario is bounded (timeout 600 s) and stops every process and removes every temporary
# directory it started (by pid). FAULTS_JSON=file appends each scenario's figures as JSON.
set -uo pipefail
cd "$(dirname "$0")/../.."
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(kill-sqlite kill-pg pg-restart disk-full)
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
failed=()
for s in "${scenarios[@]}"; do
  echo "## $s"
  timeout --signal=TERM --kill-after=30 600 python3 tests/faults/faults.py "$s" || failed+=("$s")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all passed: ${scenarios[*]}"
