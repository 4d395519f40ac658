# Shared helpers for scripts/start.sh and scripts/test.sh. Source it; do not run it.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PNPM_VERSION=12.21.0

log() { printf '\033[1m[%s]\033[0m %s\n' "$(basename "$0" .sh)" "$*" >&2; }

# pnpm: the global one when it is the right major, else through npx (corepack does not work here).
pnpm_cmd() {
  if command -v pnpm >/dev/null 2>&1 && [[ "$(pnpm --version 2>/dev/null)" == 12.* ]]; then
    pnpm "$@"
  else
    npx -y "pnpm@${PNPM_VERSION}" "$@"
  fi
}

# Install workspace dependencies when node_modules is missing or older than the lockfile.
ensure_deps() {
  if [[ ! -d "$ROOT/node_modules/.pnpm" || "$ROOT/pnpm-lock.yaml" -nt "$ROOT/node_modules/.modules.yaml" ]]; then
    log "installing dependencies (pnpm ${PNPM_VERSION})"
    (cd "$ROOT" && npm_config_nodedir="${npm_config_nodedir:-/usr}" pnpm_cmd install --frozen-lockfile)
  fi
}

can_apt() { [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; }

APT_UPDATED=0
apt_install() {
  if [[ $APT_UPDATED == 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Debian's Chromium for the Playwright suite (Playwright's own browser download cannot work here).
ensure_chromium() {
  CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
  if [[ ! -x "$CHROMIUM_PATH" ]]; then
    if can_apt; then
      log "installing Chromium from Debian packages"
      apt_install chromium
    else
      return 1
    fi
  fi
  export CHROMIUM_PATH
}

# PostgreSQL 15 server binaries for the integration suite on a real server.
ensure_postgres() {
  PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
  if [[ ! -x "$PG_BIN/initdb" ]]; then
    if can_apt; then
      log "installing PostgreSQL from Debian packages"
      apt_install postgresql
    else
      return 1
    fi
  fi
  export PG_BIN
}

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Start a throwaway PostgreSQL on a loopback port in a temp folder; sets PG_URL and PG_DIR.
# The server runs as the postgres user when we are root (initdb refuses to run as root).
start_postgres() {
  PG_DIR="$(mktemp -d /tmp/wsc-pg.XXXXXX)"
  local port
  port="$(free_port)"
  local as=()
  if [[ "$(id -u)" == 0 ]]; then
    chown postgres:postgres "$PG_DIR"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust --no-sync >/dev/null
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $port -k $PG_DIR -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
  PG_URL="postgres://postgres@127.0.0.1:${port}/postgres"
  PG_AS=("${as[@]}")
  export PG_URL
}

stop_postgres() {
  if [[ -n "${PG_DIR:-}" && -d "$PG_DIR/data" ]]; then
    "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
