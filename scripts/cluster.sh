#!/usr/bin/env bash
# A cluster of `carthage serve` instances on loopback behind `carthage balance`, for tests and
# demos (docs/OPERATIONS.md "Several instances: duties and fail-over").
#
#   scripts/cluster.sh start [N]   N instances (default 3) on ports BASE_PORT+1… and the balancer
#                                  on BIND (default 127.0.0.1:8080); DATABASE_URL must be a
#                                  PostgreSQL URL when N > 1 (SQLite serves one instance)
#   scripts/cluster.sh status      each instance's health and the duties' owners
#   scripts/cluster.sh kill I      kill -9 instance I (fail-over demo); `term I` sends SIGTERM
#   scripts/cluster.sh restart I   start instance I again
#   scripts/cluster.sh stop        SIGTERM to everything started here, then SIGKILL after 15 s
#
# Environment: DATABASE_URL, BIND, BASE_PORT (default 18100), CARTHAGE_MODE (default demo),
# CARTHAGE_BIN (default target/release/carthage, else target/debug/carthage), CLUSTER_DIR
# (default data/cluster: pid files and logs). Processes are stopped by their pid files only.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${CLUSTER_DIR:-data/cluster}
bind=${BIND:-127.0.0.1:8080}
base=${BASE_PORT:-18100}
mode=${CARTHAGE_MODE:-demo}
bin=${CARTHAGE_BIN:-}
if [ -z "$bin" ]; then
  if [ -x target/release/carthage ]; then bin=target/release/carthage; else bin=target/debug/carthage; fi
fi
[ -x "$bin" ] || { echo "no carthage binary at $bin (cargo build -p server)"; exit 2; }

health() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$1/healthz" || true; }

start_instance() {
  local i=$1
  local addr="127.0.0.1:$((base + i))"
  # The demo providers' fakes call the wallet back through the balancer (PUBLIC_URL).
  BIND=$addr PUBLIC_URL=${PUBLIC_URL:-http://$bind} CARTHAGE_MODE=$mode DATABASE_URL=$DATABASE_URL \
    nohup "$bin" serve > "$dir/instance-$i.log" 2>&1 &
  echo $! > "$dir/instance-$i.pid"
  for _ in $(seq 1 150); do
    [ "$(health "$addr")" = 200 ] && { echo "instance $i: http://$addr (pid $(cat "$dir/instance-$i.pid"))"; return 0; }
    kill -0 "$(cat "$dir/instance-$i.pid")" 2> /dev/null || { echo "instance $i exited: see $dir/instance-$i.log"; return 1; }
    sleep 0.2
  done
  echo "instance $i did not become healthy: see $dir/instance-$i.log"
  return 1
}

pid_of() { cat "$dir/$1.pid" 2> /dev/null || true; }

case "${1:-}" in
  start)
    n=${2:-3}
    : "${DATABASE_URL:?set DATABASE_URL (postgres://… for more than one instance)}"
    if [ "$n" -gt 1 ] && [[ "$DATABASE_URL" != postgres* ]]; then
      echo "SQLite serves one instance: use a PostgreSQL DATABASE_URL for $n instances"
      exit 2
    fi
    mkdir -p "$dir"
    echo "$n" > "$dir/size"
    CARTHAGE_MODE=$mode DATABASE_URL=$DATABASE_URL "$bin" migrate > /dev/null
    CARTHAGE_MODE=$mode DATABASE_URL=$DATABASE_URL "$bin" seed > /dev/null
    backends=()
    for i in $(seq 1 "$n"); do
      start_instance "$i"
      backends+=(--backend "127.0.0.1:$((base + i))")
    done
    nohup "$bin" balance --listen "$bind" "${backends[@]}" > "$dir/balancer.log" 2>&1 &
    echo $! > "$dir/balancer.pid"
    for _ in $(seq 1 50); do [ "$(health "$bind")" = 200 ] && break; sleep 0.1; done
    echo "balancer: http://$bind (pid $(pid_of balancer))"
    ;;
  status)
    n=$(cat "$dir/size" 2> /dev/null || echo 0)
    for i in $(seq 1 "$n"); do echo "instance $i (pid $(pid_of "instance-$i")): /healthz $(health "127.0.0.1:$((base + i))")"; done
    echo "balancer (pid $(pid_of balancer)): /healthz $(health "$bind")"
    CARTHAGE_MODE=$mode DATABASE_URL=$DATABASE_URL "$bin" duties || true
    ;;
  kill | term)
    sig=$([ "$1" = kill ] && echo KILL || echo TERM)
    p=$(pid_of "instance-${2:?which instance}")
    [ -n "$p" ] && kill -s "$sig" "$p" && echo "instance $2 (pid $p): SIG$sig"
    ;;
  restart)
    mkdir -p "$dir"
    start_instance "${2:?which instance}"
    ;;
  stop)
    for f in "$dir"/*.pid; do
      [ -e "$f" ] || continue
      p=$(cat "$f")
      kill -TERM "$p" 2> /dev/null || true
    done
    for _ in $(seq 1 150); do
      alive=0
      for f in "$dir"/*.pid; do [ -e "$f" ] && kill -0 "$(cat "$f")" 2> /dev/null && alive=1; done
      [ $alive = 0 ] && break
      sleep 0.1
    done
    for f in "$dir"/*.pid; do [ -e "$f" ] && { kill -KILL "$(cat "$f")" 2> /dev/null || true; rm -f "$f"; }; done
    echo "stopped"
    ;;
  *)
    sed -n '2,16p' "$0"
    exit 2
    ;;
esac
