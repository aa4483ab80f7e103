#!/usr/bin/env bash
# Source this file: installs Debian's PostgreSQL if missing, starts a throwaway cluster on
# loopback and exports TEST_POSTGRES_URL; stop_postgres stops it (scripts/test.sh traps it).
# Needs root (apt-get, runuser); without it, the PostgreSQL tests are skipped.

start_postgres() {
  if [ -n "${TEST_POSTGRES_URL:-}" ]; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "note: not root, so no throwaway PostgreSQL; set TEST_POSTGRES_URL to test on one" >&2
    return 0
  fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  PG_DIR=/tmp/tracker-pg-$$
  install -d -m 0755 -o postgres -g postgres "$PG_DIR"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  runuser -u postgres -- "$bin/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  runuser -u postgres -- "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null
  PG_BIN=$bin
  export TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
}

stop_postgres() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
