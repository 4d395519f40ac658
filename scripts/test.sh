#!/usr/bin/env bash
# `npm test`: installs what is missing (dependencies, Chromium, PostgreSQL where the machine allows it)
# and runs every test: type checks, lint, unit and integration suites (PGlite, then PostgreSQL), the
# development loop (`pnpm dev`), e2e.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

trap stop_postgres EXIT
started=$SECONDS
results=()
failed=0

step() { # name, command...
  local name="$1"; shift
  log "── $name"
  local t=$SECONDS
  if "$@"; then
    results+=("ok    $name ($((SECONDS - t)) s)")
  else
    results+=("FAIL  $name ($((SECONDS - t)) s)")
    failed=$((failed + 1))
  fi
}

ensure_deps

if ! ensure_chromium; then
  log "Chromium is missing and cannot be installed here (needs root and apt-get); set CHROMIUM_PATH."
  exit 1
fi
if ! ensure_postgres; then
  log "PostgreSQL 15 is missing and cannot be installed here (needs root and apt-get); set PG_BIN."
  exit 1
fi

step "typecheck" pnpm_cmd -r --workspace-concurrency=2 run typecheck
step "lint" pnpm_cmd exec eslint . --max-warnings 0
step "import cycles" node scripts/check-import-cycles.mjs
step "unit and integration (PGlite)" pnpm_cmd -r --workspace-concurrency=1 --filter '!e2e' run test

start_postgres
log "PostgreSQL at ${PG_URL}"
api_on_postgres() { TEST_DATABASE_URL="$PG_URL" pnpm_cmd --filter workspace-api run test; }
bff_on_postgres() { TEST_BFF_DATABASE_URL="$PG_URL" pnpm_cmd --filter bff run test; }
step "workspace-api on PostgreSQL" api_on_postgres
step "bff store on PostgreSQL" bff_on_postgres
stop_postgres

step "pnpm dev (the development loop)" node scripts/check-dev.mjs
step "build console" pnpm_cmd --filter web run build
step "e2e (Chromium)" pnpm_cmd --filter e2e run test

log "summary after $((SECONDS - started)) s:"
printf '  %s\n' "${results[@]}" >&2
passed=$(( ${#results[@]} - failed ))
echo "steps: ${passed} passed, ${failed} failed"
[[ $failed == 0 ]]
