#!/usr/bin/env bash
# CPU time per balance read, split between the server and PostgreSQL: a figure that
# other load on the machine barely moves (unlike requests/s). Usage:
#   bash benches/cpu-per-request.sh sqlite:///tmp/cpr/c.db
#   bash benches/cpu-per-request.sh postgres://postgres@127.0.0.1/some_empty_db
set -e
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/carthage
export CARTHAGE_MODE=demo DATABASE_URL=$1 BIND=127.0.0.1:18111 RUST_LOG=warn
$bin seed >/dev/null
$bin serve > /tmp/cpuprof.log 2>&1 & pid=$!
sleep 1
tok=$(curl -s localhost:18111/api/user/login -H 'content-type: application/json' -d '{"login":"player@carthage.local","password":"Player123"}' | python3 -c 'import sys,json;print(json.load(sys.stdin)["result"]["token"])')
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
pgcpu() { local t=0; for p in $(pgrep -u postgres postgres); do t=$((t + $(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || echo 0))); done; echo $t; }
s0=$(cpu $pid); p0=$(pgcpu)
out=$(BENCH_TOKEN=$tok wrk -t1 -c16 -d10s -s "$(dirname "$0")/balance.lua" http://127.0.0.1:18111/api/user/balance)
s1=$(cpu $pid); p1=$(pgcpu)
n=$(echo "$out" | awk '/requests in/{print $1}')
echo "$out" | grep Requests/sec
python3 -c "n=$n; print('server us/req %.1f  postgres us/req %.1f' % (($s1-$s0)*10000/n, ($p1-$p0)*10000/n))"
kill $pid
