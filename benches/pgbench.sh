# Sourced by the issue-21 benches (groupcommit.sh, instances.sh): the machine's line and the
# pgbench tpcb-like figure of the same window, on a database of its own.
# Usage: . "$root/benches/pgbench.sh"; machine_line; pgbench_tpcb SECONDS ADMIN_URL NAME
machine_line() {
  echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

pgbench_tpcb() {
  local secs=$1 admin=$2 db="$3_pgbench_$$"
  echo "## pgbench tpcb-like: -c 8 -j 2 -M prepared -T $secs"
  psql "$admin" -qc "CREATE DATABASE $db"
  pgbench -i -q "${admin%/*}/$db" > /dev/null 2>&1
  pgbench -c 8 -j 2 -M prepared -T "$secs" "${admin%/*}/$db" 2>/dev/null | grep -E 'tps|latency average|number of failed'
  psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
}
