# Shared helpers for scripts/start.sh, dev.sh and test.sh. Source it; do not run it.
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

# ── The running stack (start.sh and dev.sh) ─────────────────────────────────────────────────────

# Settings of the stack: `.env` in the repository root when there is one (KEY=value lines, see
# .env.example), then the defaults. Sets DATA, PROFILE, API_PORT, API_EU_PORT, BFF_PORT and keeps a
# SESSION_SECRET per data folder (the BFF encrypts secrets at rest with a key derived from it).
stack_settings() {
  if [[ -f "$ROOT/.env" ]]; then
    set -a
    # shellcheck disable=SC1091
    source "$ROOT/.env"
    set +a
  fi
  DATA="${WSC_DATA_DIR:-$ROOT/.data}"
  PROFILE="${API_PROFILE:-extended}"
  case "$PROFILE" in
    extended | hosted) ;;
    *) log "API_PROFILE must be extended or hosted, not '$PROFILE'"; exit 2 ;;
  esac
  export API_PROFILE="$PROFILE"
  API_PORT="${API_PORT:-4010}"
  API_EU_PORT="${API_EU_PORT:-4011}"
  BFF_PORT="${BFF_PORT:-3000}"
  mkdir -p "$DATA"
  if [[ ! -s "$DATA/session-secret" ]]; then
    (umask 077 && node -e 'console.log(require("crypto").randomBytes(48).toString("base64url"))' >"$DATA/session-secret")
  fi
}

# Children started with `track`; all are stopped on exit, Ctrl+C or TERM.
PIDS=()
track() { PIDS+=("$1"); }
stop_tracked() {
  trap - EXIT INT TERM
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap_stop_tracked() { trap stop_tracked EXIT INT TERM; }

# Wait for the first tracked child to exit, then stop the rest (exit 1).
wait_any_tracked() {
  wait -n "${PIDS[@]}"
  log "a process exited; stopping the rest"
  exit 1
}

wait_http() { # url name
  for _ in $(seq 1 600); do
    if node -e 'fetch(process.argv[1]).then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))' "$1"; then return 0; fi
    sleep 0.5
  done
  log "$2 did not come up at $1"; return 1
}

# The BFF's environment for the stack (BFF_ENV): both regions, their profile, and in the hosted
# profile what an operator gives the BFF for a tenant: the record types (the published API cannot
# describe them) and who each client ID is (its token reply names nobody). Needs the APIs seeded.
bff_stack_env() {
  BFF_ENV=(PORT="$BFF_PORT" HOST=127.0.0.1
    WORKSPACE_API_URL="http://127.0.0.1:$API_PORT/v1" WORKSPACE_API_URL_EU="http://127.0.0.1:$API_EU_PORT/v1"
    WORKSPACE_API_PROFILE="$PROFILE" WORKSPACE_API_PROFILE_EU="$PROFILE"
    SESSION_SECRET="$(cat "$DATA/session-secret")" BFF_DATA_DIR="$DATA/bff")
  if [[ "$PROFILE" == hosted ]]; then
    (cd "$ROOT/apps/workspace-api" && ./node_modules/.bin/tsx src/cli.ts describe-workspace --profile hosted) \
      >"$DATA/hosted-workspace.json"
    node -e '
      const fs = require("fs");
      const identities = [];
      for (const region of ["default", "eu"]) {
        const c = JSON.parse(fs.readFileSync(`${process.argv[1]}/api-${region}/demo-credentials.json`, "utf8"));
        identities.push({ clientId: c.admin.clientId, email: c.admin.email, role: "ADMIN", region });
        identities.push({ clientId: c.agent.clientId, email: c.agent.email, role: "MEMBER", region });
      }
      fs.writeFileSync(`${process.argv[1]}/hosted-identities.json`, JSON.stringify({ identities }, null, 2));
    ' "$DATA"
    BFF_ENV+=(BFF_WORKSPACE_FILE="$DATA/hosted-workspace.json" BFF_WORKSPACE_FILE_EU="$DATA/hosted-workspace.json"
      BFF_IDENTITIES_FILE="$DATA/hosted-identities.json")
  fi
}

# The banner: where the console is, and the demo credentials of both regions.
print_banner() { # console-url what
  printf '\n  Workspace Console is running: %s  (%s, %s profile)\n\n  Demo credentials (also in %s/api-default/demo-credentials.json and api-eu/):\n' \
    "$1" "$2" "$PROFILE" "$DATA"
  for region in default eu; do
    node -e '
      const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      for (const [who, v] of Object.entries(c))
        console.log(`    ${process.argv[2].padEnd(8)} ${who.padEnd(6)} ${v.email.padEnd(28)} client ID ${v.clientId}  secret ${v.clientSecret}`);
    ' "$DATA/api-$region/demo-credentials.json" "$region"
  done
  printf '\n  Press Ctrl+C to stop.\n\n'
}
