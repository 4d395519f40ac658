#!/bin/sh
# Runs the built server (dist/index.js from `pnpm --filter workspace-api build`) with the node flags
# production uses; the same env as src/index.ts (PORT, DATA_DIR, ...). `exec` keeps one process, so
# its pid is the server's. --v8-pool-size=1: one V8 helper thread instead of four, so PGlite's WASM
# tier-up compiles one function at a time; that keeps ~35-75 MiB of compiler memory off the RSS at
# no measured cost in CPU per request (docs/benchmarks.md, "Workspace API memory").
set -eu
cd "$(dirname "$0")/.."
if [ ! -f dist/index.js ]; then
  echo "dist/index.js is missing: run \`pnpm --filter workspace-api build\` first" >&2
  exit 1
fi
exec node --v8-pool-size=1 dist/index.js "$@"
