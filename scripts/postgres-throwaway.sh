#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks: Debian's server binaries, a data
# folder under a temp directory, trust authentication on 127.0.0.1 only, a free port.
#
#   eval "$(bash scripts/postgres-throwaway.sh start)"   # exports CLINDOC_TEST_PG_URL and PG_THROWAWAY_DIR
#   bash scripts/postgres-throwaway.sh stop "$PG_THROWAWAY_DIR"
#
# `start` prints only the export lines on stdout (progress goes to stderr). PostgreSQL refuses to run
# as root, so under root the cluster belongs to the `postgres` user the Debian package creates.
set -euo pipefail

bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    echo "postgres-throwaway: PostgreSQL server binaries not found (run scripts/setup-system.sh)" >&2
    exit 1
  fi
  echo "$dir"
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

case "${1:-}" in
  start)
    BIN=$(bin_dir)
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/clindoc-pg.XXXXXX")
    chmod 755 "$DIR"
    if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$DIR"; fi
    PORT=$(free_port)
    as_owner "$BIN/initdb" -D "$DIR/data" -U clindoc --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    # Sockets stay in the cluster's own folder; only loopback TCP is opened. Durability settings are
    # the defaults: the tests kill workers mid-job and must see what a real server keeps.
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR -c max_connections=300" start >&2
    echo "export CLINDOC_TEST_PG_URL=postgres://clindoc@127.0.0.1:$PORT/postgres"
    echo "export PG_THROWAWAY_DIR=$DIR"
    ;;
  stop)
    DIR="${2:?usage: postgres-throwaway.sh stop DIR}"
    BIN=$(bin_dir)
    if [ -d "$DIR/data" ]; then as_owner "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >&2 || true; fi
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: postgres-throwaway.sh start | stop DIR" >&2
    exit 2
    ;;
esac
