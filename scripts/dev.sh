#!/usr/bin/env bash
# `pnpm dev`: the development loop. Both workspace API regions and the BFF run from source under
# `tsx watch` (each restarts when one of its files is saved), and Vite serves the console with hot
# module replacement, proxying /api and /bff to the BFF (apps/web/vite.config.ts), so the console
# is same-origin exactly as when the BFF serves the build. The API regions keep their embedded
# stores under .data/ (the same as `npm start`; seeded with the demo workspace when empty). No
# environment is needed; `.env` (see .env.example) overrides the defaults, API_PROFILE=hosted
# included. Ctrl+C stops everything.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
stack_settings
VITE_PORT="${VITE_PORT:-5173}"

ensure_deps
trap_stop_tracked
start_api() { # region port
  (cd apps/workspace-api && PORT="$2" HOST=127.0.0.1 REGION="$1" DATA_DIR="$DATA/api-$1" \
    exec ./node_modules/.bin/tsx watch --clear-screen=false src/index.ts) &
  track $!
}

log "starting the workspace API from source, $PROFILE profile (default region on :$API_PORT, eu on :$API_EU_PORT)"
start_api default "$API_PORT"
start_api eu "$API_EU_PORT"
wait_http "http://127.0.0.1:$API_PORT/health" "workspace API (default)"
wait_http "http://127.0.0.1:$API_EU_PORT/health" "workspace API (eu)"

bff_stack_env
log "starting the BFF from source on :$BFF_PORT"
(cd apps/bff && exec env "${BFF_ENV[@]}" ./node_modules/.bin/tsx watch --clear-screen=false src/index.ts) &
track $!
wait_http "http://127.0.0.1:$BFF_PORT/bff/health" "BFF"

log "starting Vite on :$VITE_PORT (proxying /api and /bff to :$BFF_PORT)"
(cd apps/web && BFF_PORT="$BFF_PORT" exec ./node_modules/.bin/vite --host 127.0.0.1 --port "$VITE_PORT" --strictPort --clearScreen false) &
track $!
wait_http "http://127.0.0.1:$VITE_PORT/" "Vite"

print_banner "http://localhost:$VITE_PORT" "development: reload on save"
wait_any_tracked
