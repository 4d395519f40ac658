import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { openDatabase, PGLITE_SHARED_BUFFERS_MB } from './client.ts';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const execFileAsync = promisify(execFile);
let tmp: string;
/** The migrated data folder of test/global-setup.ts (skips initdb); undefined on PostgreSQL runs. */
let pgliteTemplate: Blob | undefined;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'wsa-client-'));
  const templatePath = inject('pgliteTemplate');
  pgliteTemplate = templatePath ? new Blob([await fs.readFile(templatePath)]) : undefined;
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

// pgliteStartParams and initPgliteDir themselves are tested in packages/pglite-kysely.
describe('PGlite settings', () => {
  it('starts with the smaller default shared_buffers, or the one given', async () => {
    // PGlite's own default is 128MB, all of it resident from the start (docs/benchmarks.md).
    expect(PGLITE_SHARED_BUFFERS_MB).toBeLessThan(128);
    for (const [given, expected] of [
      [undefined, `${PGLITE_SHARED_BUFFERS_MB}MB`],
      [16, '16MB'],
    ] as const) {
      const database = await openDatabase({ pgliteSharedBuffersMb: given, pgliteTemplate });
      try {
        const { rows } = await sql<{
          shared_buffers: string;
        }>`show shared_buffers`.execute(database.db);
        expect(rows[0]?.shared_buffers).toBe(expected);
      } finally {
        await database.close();
      }
    }
  });
});

describe('a new PGlite data folder', () => {
  it('is created on the first open and resumed on the next', async () => {
    const dir = path.join(tmp, 'init', 'pg');
    const database = await openDatabase({ pgliteDir: dir });
    try {
      await expect(fs.stat(path.join(dir, 'PG_VERSION'))).resolves.toBeTruthy();
      await sql`create table kept (n int)`.execute(database.db);
    } finally {
      await database.close();
    }
    const reopened = await openDatabase({ pgliteDir: dir });
    try {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kept`.execute(
        reopened.db,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await reopened.close();
    }
  });

  it('leaves no initdb high-water mark in the process that opens it', async () => {
    // A fresh process (this worker's VmHWM already holds other PGlite instances). initdb inside
    // it peaks at 750-850 MiB and WASM memory never shrinks; opening an existing folder is
    // ~300 MiB here (node + tsx + PGlite at the default shared_buffers).
    const script = `
      import fs from 'node:fs';
      import { openDatabase } from './src/db/client.ts';
      const database = await openDatabase({ pgliteDir: process.argv[1] });
      await database.close();
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      console.log(JSON.stringify({ hwmKiB: Number(/VmHWM:\\s+(\\d+)/.exec(status)?.[1]) }));
    `;
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, path.join(tmp, 'fresh', 'pg')],
      { cwd: APP_DIR },
    );
    const { hwmKiB } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { hwmKiB: number };
    expect(hwmKiB / 1024).toBeGreaterThan(50);
    expect(hwmKiB / 1024).toBeLessThan(450);
  }, 120_000);
});
