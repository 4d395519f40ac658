#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the console, and starts the product on its embedded
# default: the workspace API for both regions (PGlite data under .data/), and the BFF serving the console.
# `.env` in the repository root, when present, overrides the defaults (.env.example lists them).
#
# `API_PROFILE=hosted npm start`: the same stack with every extension of the API turned off, so the
# console behaves exactly as against the hosted service; the BFF is given the demo workspace's
# description (BFF_WORKSPACE_FILE) and an identities file for the demo credentials, as an operator
# would configure them (docs/hosted.md).
#
# For development with reload on save and HMR: `pnpm dev` (scripts/dev.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
stack_settings

ensure_deps
log "building the console"
pnpm_cmd --filter web run build >/dev/null
# The API runs as one bundled ES module under plain node, not through tsx (~100 MiB less RSS per
# region; docs/decisions/0009-workspace-api-memory.md).
log "building the workspace API"
pnpm_cmd --filter workspace-api run build >/dev/null

trap_stop_tracked
start_api() { # region port
  (cd apps/workspace-api && PORT="$2" HOST=127.0.0.1 REGION="$1" DATA_DIR="$DATA/api-$1" \
    exec sh scripts/serve.sh) &
  track $!
}

log "starting the workspace API, $PROFILE profile (default region on :$API_PORT, eu on :$API_EU_PORT)"
start_api default "$API_PORT"
start_api eu "$API_EU_PORT"
wait_http "http://127.0.0.1:$API_PORT/health" "workspace API (default)"
wait_http "http://127.0.0.1:$API_EU_PORT/health" "workspace API (eu)"

bff_stack_env
log "starting the BFF on :$BFF_PORT"
(cd apps/bff && exec env "${BFF_ENV[@]}" PUBLIC_DIR="$ROOT/apps/web/dist" ./node_modules/.bin/tsx src/index.ts) &
track $!
wait_http "http://127.0.0.1:$BFF_PORT/bff/health" "BFF"

print_banner "http://localhost:$BFF_PORT" "built"
wait_any_tracked
