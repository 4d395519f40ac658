#!/usr/bin/env bash
# `npm run console`: the console alone (BFF and web, no local API) against a tenant's own service:
#
#   WORKSPACE_API_URL=https://api.elementum.io/v1 npm run console
#
# Every BFF variable of docs/bff.md passes through (WORKSPACE_API_URL_EU, WORKSPACE_API_PROFILE,
# BFF_WORKSPACE_FILE, BFF_IDENTITIES_FILE, PORT, ...). Sessions and described record types are
# kept in .data/console/ (WSC_DATA_DIR to move it). docs/hosted.md walks through it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

if [[ -z "${WORKSPACE_API_URL:-}" ]]; then
  log "set WORKSPACE_API_URL to the tenant's API base, e.g."
  log "  WORKSPACE_API_URL=https://api.elementum.io/v1 npm run console"
  exit 2
fi

DATA="${WSC_DATA_DIR:-$ROOT/.data}/console"
PORT="${PORT:-3000}"
mkdir -p "$DATA"

ensure_deps
log "building the console"
pnpm_cmd --filter web run build >/dev/null

if [[ ! -s "$DATA/session-secret" ]]; then
  (umask 077 && node -e 'console.log(require("crypto").randomBytes(48).toString("base64url"))' >"$DATA/session-secret")
fi

log "starting the BFF on :$PORT for $WORKSPACE_API_URL${WORKSPACE_API_URL_EU:+ and $WORKSPACE_API_URL_EU}"
cd apps/bff
export PORT HOST="${HOST:-127.0.0.1}"
export SESSION_SECRET="${SESSION_SECRET:-$(cat "$DATA/session-secret")}"
export PUBLIC_DIR="${PUBLIC_DIR:-$ROOT/apps/web/dist}" BFF_DATA_DIR="${BFF_DATA_DIR:-$DATA/bff}"
printf '\n  Workspace Console: http://localhost:%s  (sign in with your API client ID and secret)\n\n' "$PORT"
exec ./node_modules/.bin/tsx src/index.ts
