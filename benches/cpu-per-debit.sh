#!/usr/bin/env bash
# CPU time per ledger debit (POST /api/admin/wallet/adjust over 32 players), split between
# the server and PostgreSQL. Usage as benches/cpu-per-request.sh.
set -e
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/carthage
export CARTHAGE_MODE=demo DATABASE_URL=$1 BIND=127.0.0.1:18112 RUST_LOG=warn
$bin seed >/dev/null
ids=""
for i in $(seq 1 32); do
  id=$($bin user create --role player --email cpu$i@bench.test --password Bench1234 | sed -n 's/created user \([0-9]*\).*/\1/p')
  $bin wallet adjust --user $id --amount 1000000 --reason fund >/dev/null
  ids="$ids,$id"
done
id=${ids#,}
$bin serve > /tmp/cpudebit.log 2>&1 & pid=$!
sleep 1
code=$(python3 "$(dirname "$0")/../scripts/totp.py" INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB)
tok=$(curl -s localhost:18112/api/staff/login -H 'content-type: application/json' -d "{\"login\":\"admin@carthage.local\",\"password\":\"Admin1234\",\"code\":\"$code\"}" | python3 -c 'import sys,json;print(json.load(sys.stdin)["result"]["token"])')
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
pgcpu() { local t=0; for p in $(pgrep -u postgres postgres); do t=$((t + $(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || echo 0))); done; echo $t; }
s0=$(cpu $pid); p0=$(pgcpu)
out=$(BENCH_TOKEN=$tok BENCH_USERS=$id BENCH_RUN=r$RANDOM wrk -t1 -c16 -d10s --latency -s "$(dirname "$0")/debit.lua" http://127.0.0.1:18112)
s1=$(cpu $pid); p1=$(pgcpu)
n=$(echo "$out" | awk '/requests in/{print $1}')
echo "$out" | grep -E "Requests/sec|99%"
python3 -c "n=$n; print('server us/req %.1f  postgres us/req %.1f' % (($s1-$s0)*10000/n, ($p1-$p0)*10000/n))"
kill $pid
