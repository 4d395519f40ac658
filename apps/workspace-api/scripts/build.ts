// Bundles the server (src/index.ts and the workspace packages it imports, which are TypeScript
// source) into one ES module, dist/index.js, that plain node runs: `pnpm --filter workspace-api
// build`, then scripts/serve.sh. Running the sources through tsx instead costs ~100 MiB of RSS
// (the in-process TypeScript compiler, its worker and per-module source maps) for the life of the
// server; see docs/decisions/0009-workspace-api-memory.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes `<outDir>/index.js` (+ a source map, used only with `node --enable-source-maps`).
 * `outDir` must sit inside apps/workspace-api so that the external PGlite package resolves from
 * its node_modules.
 *
 * @example
 * await buildServer(path.join(APP_DIR, 'dist'));
 */
export async function buildServer(outDir = path.join(APP_DIR, 'dist')): Promise<string> {
  const outfile = path.join(outDir, 'index.js');
  await build({
    absWorkingDir: APP_DIR,
    entryPoints: ['src/index.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // PGlite loads its .wasm and .data files next to its own module, so it stays a package;
    // pg-native is pg's optional native binding, never installed.
    external: ['@electric-sql/pglite', 'pg-native'],
    // Bundled CommonJS packages (pg, busboy) call require(); give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outfile = await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`built ${path.relative(process.cwd(), outfile)}`);
}
