#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the console, and starts the product on its embedded
# default: the workspace API for both regions (PGlite data under .data/), and the BFF serving the console.
#
# `API_PROFILE=hosted npm start`: the same stack with every extension of the API turned off, so the
# console behaves exactly as against the hosted service; the BFF is given the demo workspace's
# description (BFF_WORKSPACE_FILE) and an identities file for the demo credentials, as an operator
# would configure them (docs/hosted.md).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

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

ensure_deps
log "building the console"
pnpm_cmd --filter web run build >/dev/null
# The API runs as one bundled ES module under plain node, not through tsx (~100 MiB less RSS per
# region; docs/decisions/0009-workspace-api-memory.md).
log "building the workspace API"
pnpm_cmd --filter workspace-api run build >/dev/null

# The BFF encrypts secrets at rest with a key derived from SESSION_SECRET: keep one per data folder.
if [[ ! -s "$DATA/session-secret" ]]; then
  (umask 077 && node -e 'console.log(require("crypto").randomBytes(48).toString("base64url"))' >"$DATA/session-secret")
fi

pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

start_api() { # region port
  (cd apps/workspace-api && PORT="$2" HOST=127.0.0.1 REGION="$1" DATA_DIR="$DATA/api-$1" \
    exec sh scripts/serve.sh) &
  pids+=($!)
}

wait_http() { # url name
  for _ in $(seq 1 600); do
    if node -e 'fetch(process.argv[1]).then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))' "$1"; then return 0; fi
    sleep 0.5
  done
  log "$2 did not come up at $1"; return 1
}

log "starting the workspace API, $PROFILE profile (default region on :$API_PORT, eu on :$API_EU_PORT)"
start_api default "$API_PORT"
start_api eu "$API_EU_PORT"
wait_http "http://127.0.0.1:$API_PORT/health" "workspace API (default)"
wait_http "http://127.0.0.1:$API_EU_PORT/health" "workspace API (eu)"

bff_env=(WORKSPACE_API_PROFILE="$PROFILE" WORKSPACE_API_PROFILE_EU="$PROFILE")
if [[ "$PROFILE" == hosted ]]; then
  # What an operator gives the BFF for a tenant: the record types (the published API cannot
  # describe them) and who each client ID is (its token reply names nobody).
  (cd apps/workspace-api && ./node_modules/.bin/tsx src/cli.ts describe-workspace --profile hosted) \
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
  bff_env+=(BFF_WORKSPACE_FILE="$DATA/hosted-workspace.json" BFF_WORKSPACE_FILE_EU="$DATA/hosted-workspace.json"
    BFF_IDENTITIES_FILE="$DATA/hosted-identities.json")
fi

log "starting the BFF on :$BFF_PORT"
(cd apps/bff && exec env "${bff_env[@]}" PORT="$BFF_PORT" HOST=127.0.0.1 \
  WORKSPACE_API_URL="http://127.0.0.1:$API_PORT/v1" WORKSPACE_API_URL_EU="http://127.0.0.1:$API_EU_PORT/v1" \
  SESSION_SECRET="$(cat "$DATA/session-secret")" PUBLIC_DIR="$ROOT/apps/web/dist" BFF_DATA_DIR="$DATA/bff" \
  ./node_modules/.bin/tsx src/index.ts) &
pids+=($!)
wait_http "http://127.0.0.1:$BFF_PORT/bff/health" "BFF"

cat <<MSG

  Workspace Console is running: http://localhost:$BFF_PORT  ($PROFILE profile)

  Demo credentials (also in $DATA/api-default/demo-credentials.json and api-eu/):
MSG
for region in default eu; do
  node -e '
    const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const [who, v] of Object.entries(c))
      console.log(`    ${process.argv[2].padEnd(8)} ${who.padEnd(6)} ${v.email.padEnd(28)} client ID ${v.clientId}  secret ${v.clientSecret}`);
  ' "$DATA/api-$region/demo-credentials.json" "$region"
done
printf '\n  Press Ctrl+C to stop.\n\n'

# Stop everything when any part exits.
wait -n "${pids[@]}"
log "a process exited; stopping the rest"
exit 1
