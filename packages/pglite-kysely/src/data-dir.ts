// Starting PGlite without keeping memory it only needs once: initdb in a child process, and a
// PostgreSQL `shared_buffers` chosen by the caller instead of the 128 MB default.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's start arguments with a given `shared_buffers` in MiB: its defaults (single-user mode,
 * no parallel workers), then `-c shared_buffers=...`, which wins over postgresql.conf. PGlite's
 * own default is PostgreSQL's 128 MB, all of it resident from the moment PGlite starts (it lives
 * in the WASM memory, which never shrinks), so each app passes the figure its data needs
 * (docs/decisions/0009-workspace-api-memory.md).
 *
 * @example
 * await PGlite.create({ dataDir, startParams: pgliteStartParams(32) });
 */
export function pgliteStartParams(sharedBuffersMb: number): string[] {
  if (!Number.isInteger(sharedBuffersMb) || sharedBuffersMb < 1)
    throw new Error(`Invalid PGlite shared_buffers: ${sharedBuffersMb} MiB`);
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`];
}

const execFileAsync = promisify(execFile);

// Runs in a separate node process: PGlite's first start on an empty folder (initdb) needs ~700-800
// MiB of WASM memory for a few seconds, and WASM memory never shrinks, so doing it in the caller's
// process would leave that process at that size for its whole life (and its VmHWM there for good).
const INIT_SCRIPT = `
const [moduleUrl, dataDir] = process.argv.slice(1);
const { PGlite } = await import(moduleUrl);
const pglite = await PGlite.create({ dataDir });
await pglite.close();
`;

/**
 * Creates a PGlite data folder (initdb) in a short-lived child process when `dataDir` holds none
 * yet, so that the caller opens an existing folder. Returns whether it created one.
 *
 * @example
 * await initPgliteDir('.data/workspace-api/pg'); // then PGlite.create({ dataDir }) resumes it
 */
export async function initPgliteDir(dataDir: string): Promise<boolean> {
  const exists = await fs
    .stat(path.join(dataDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  if (exists) return false;
  await fs.mkdir(dataDir, { recursive: true });
  // Resolved from here, so the child loads the same PGlite as the importer: the catalog pins one
  // version for the workspace, and a bundle that inlines this file resolves from its own folder.
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  try {
    await execFileAsync(
      process.execPath,
      ['--input-type=module', '-e', INIT_SCRIPT, moduleUrl.href, path.resolve(dataDir)],
      { timeout: 300_000 },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the PGlite data folder ${dataDir}: ${stderr || error}`, {
      cause: error,
    });
  }
  return true;
}
