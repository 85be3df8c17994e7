#!/usr/bin/env bash
# The several-processes benchmark (not a test): `chimere load` against
#   1. one process on SQLite,
#   2. one process on PostgreSQL,
#   3. two processes on PostgreSQL behind nginx (deploy/nginx.conf, its addresses replaced),
# for each number of games given (default "1000 3000"), in one run, on one throwaway
# PostgreSQL cluster (.ci/pg-cluster). Then the cost of a failover: two processes behind
# nginx, a game whose owner is killed with SIGKILL, the seconds until the game accepts a move
# again (the integration test's figure, `tests/multi.rs`, run 3 times).
#
#   deploy/bench-multi.sh [GAMES...]        env: PLIES (20), THINK_MS (1000), BIN (target/release/chimere)
#
# Needs Debian's postgresql and nginx, and a release build (cargo build --release -p chimere-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=${BIN:-$root/target/release/chimere}
plies=${PLIES:-20}
think=${THINK_MS:-1000}
games_list=${*:-1000 3000}
nginx=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
[ -x "$bin" ] || { echo "no $bin: cargo build --release -p chimere-cli" >&2; exit 1; }
[ -n "$nginx" ] || { echo "nginx is not installed (apt-get install nginx)" >&2; exit 1; }
psql=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql
work=$(mktemp -d /tmp/chimere-multi-bench-XXXXXX)
chmod 755 "$work"  # the cluster belongs to the postgres user under root
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  .ci/pg-cluster destroy "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
url=$(.ci/pg-cluster init "$work/pg")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_up() {
  for _ in $(seq 1 200); do
    curl -s -o /dev/null "http://$1/api/me" && return 0
    sleep 0.1
  done
  echo "no server at $1" >&2
  return 1
}
serve() { # DB ADDR
  "$bin" serve --db "$1" --listen "$2" >"$work/serve-${2##*:}.log" 2>&1 &
  pids+=($!)
  wait_up "$2"
}
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}
fresh_pg() { # a new empty database, its URL
  local db=bench_$1
  "$psql" -q "$url" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
  echo "${url%/*}/$db"
}
front() { # FRONT UPSTREAM... : nginx with deploy/nginx.conf's addresses replaced
  local front=$1; shift
  mkdir -p "$work/nginx"
  python3 - "$root/deploy/nginx.conf" "$work/nginx/nginx.conf" "$front" "$@" <<'EOF'
import sys
src, dst, front, ups = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
conf = open(src).read().replace("127.0.0.1:8081", ups[0]).replace("127.0.0.1:8082", ups[1])
open(dst, "w").write(conf.replace("listen 127.0.0.1:8080", f"listen {front}"))
EOF
  "$nginx" -p "$work/nginx" -e stderr -c "$work/nginx/nginx.conf" -g "daemon off;" &
  pids+=($!)
  wait_up "$front"
}
load() { # LABEL ADDR GAMES
  echo "== $1, $3 games, $plies turns, think $think ms"
  "$bin" load --server "$2" --games "$3" --plies "$plies" --think-ms "$think" 2>&1 | sed 's/^/   /' || echo "   (load reported errors)"
}
for games in $games_list; do
  a=127.0.0.1:$(free_port)
  serve "$work/sqlite-$games.db" "$a"
  load "1 process, SQLite" "$a" "$games"
  stop_all
  serve "$(fresh_pg "one_$games")" "$a"
  load "1 process, PostgreSQL" "$a" "$games"
  stop_all
  rm -f "$work"/serve-*.log
  db=$(fresh_pg "two_$games")
  b=127.0.0.1:$(free_port)
  f=127.0.0.1:$(free_port)
  serve "$db" "$a"
  serve "$db" "$b"
  front "$f" "$a" "$b"
  load "2 processes, PostgreSQL, nginx" "$f" "$games"
  stop_all
  # Games that changed owner between the two live processes during the run (leases lost
  # under load), and writes refused by the fence.
  echo "   leases taken over from a live process: $(cat "$work"/serve-*.log | grep -c 'its lease was taken over' || true)," \
    "renewals failed: $(cat "$work"/serve-*.log | grep -c 'leases not renewed' || true)," \
    "writes fenced: $(cat "$work"/serve-*.log | grep -c 'served by another process now' || true)"
  rm -f "$work"/serve-*.log
done
echo "== failover (tests/multi.rs: SIGKILL of the owner mid-game, seconds until its game accepts a move)"
for _ in 1 2 3; do
  CHIMERE_TEST_DATABASE_URL=$url cargo test -q -p chimere-server --test multi two_processes -- --nocapture 2>&1 \
    | grep -E "failover:|test result" | sed 's/^/   /'
done
