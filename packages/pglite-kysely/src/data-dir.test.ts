import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { initPgliteDir, pgliteStartParams } from './data-dir.ts';

let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'pglite-kysely-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('pgliteStartParams', () => {
  it('keeps PGlite start arguments and sets shared_buffers last', () => {
    const params = pgliteStartParams(48);
    expect(params.slice(0, PGlite.defaultStartParams.length)).toEqual(PGlite.defaultStartParams);
    expect(params.slice(-2)).toEqual(['-c', 'shared_buffers=48MB']);
  });

  it('refuses a size that is not a positive whole number of MiB', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => pgliteStartParams(bad)).toThrow(/shared_buffers/);
    }
  });
});

describe('initPgliteDir', () => {
  it('creates a data folder in a child process, once, that PGlite then resumes', async () => {
    const dir = path.join(tmp, 'init', 'pg');
    expect(await initPgliteDir(dir)).toBe(true);
    await expect(fs.stat(path.join(dir, 'PG_VERSION'))).resolves.toBeTruthy();
    expect(await initPgliteDir(dir)).toBe(false);

    const first = await PGlite.create({ dataDir: dir, startParams: pgliteStartParams(16) });
    try {
      await first.exec('create table kept (n int); insert into kept values (1)');
      const { rows } = await first.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).toBe('16MB');
    } finally {
      await first.close();
    }
    const reopened = await PGlite.create({ dataDir: dir });
    try {
      const { rows } = await reopened.query<{ n: number }>('select count(*)::int as n from kept');
      expect(rows[0]?.n).toBe(1);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('names the folder when initdb fails', async () => {
    const file = path.join(tmp, 'a-file');
    await fs.writeFile(file, '');
    await expect(initPgliteDir(path.join(file, 'pg'))).rejects.toThrow(/a-file/);
  });
});
