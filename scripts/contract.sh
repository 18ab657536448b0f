#!/usr/bin/env bash
# The contract check (issue 9 item 7): a bounded schemathesis run over every operation of
# docs/openapi.json against the real server on a fresh SQLite database in demo mode, with
# every check on. Fails on any 5xx, any reply that does not match the document (status
# code, content type, headers, body schema), valid input refused or invalid input accepted.
#
#   bash scripts/contract.sh [path/to/carthage]     (default ./target/debug/carthage)
#
# Schemathesis is pinned and installed from PyPI into .venv-st/ on first use. The run is
# seeded, one worker (reproducible) and bounded: CONTRACT_EXAMPLES examples per operation (default 25).
set -euo pipefail
bin=${1:-./target/debug/carthage}
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv-st"
version=4.32.5
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version"
fi
. "$root/scripts/test-server.sh"

# A signed-in player with a game session, so authenticated operations are exercised past
# their sign-in check (one-click sign-up answers the session token).
token=$(curl -fs "$base/api/user/signup/one-click" -H 'content-type: application/json' -d '{"currency":"TND"}' \
  | python3 -c 'import sys,json; print(json.load(sys.stdin)["result"]["token"])')
game=$(curl -fs "$base/api/casino/session" -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"provider":"studio","gameId":"dice","lang":"en","platform":"mobile"}' \
  | python3 -c 'import sys,json; print(json.load(sys.stdin)["result"]["sessionToken"])')

run() {
  "$venv/bin/schemathesis" run "$root/docs/openapi.json" --url "$base" \
    --checks all --phases examples,coverage,fuzzing \
    --max-examples "${CONTRACT_EXAMPLES:-25}" --seed 20261124 --workers 1 --request-timeout 20 \
    --suppress-health-check all --no-color \
    -H "Authorization: Bearer $token" -H "X-Game-Session: $game" "$@"
}
# Sign-out last, so it does not end the session the other operations run with.
set +e
run --exclude-path /api/user/logout > "$tmp/out.txt" 2>&1
rc=$?
run --include-path /api/user/logout > "$tmp/out-logout.txt" 2>&1
rc2=$?
set -e
tail -n "${CONTRACT_TAIL:-80}" "$tmp/out.txt"
tail -n 12 "$tmp/out-logout.txt"
[ "$rc" -eq 0 ] && rc=$rc2
if [ "$rc" -ne 0 ]; then
  echo "--- contract check failed (schemathesis exit $rc); server log tail:"
  tail -n 20 "$tmp/server.log"
fi
exit "$rc"
