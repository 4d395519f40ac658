// A throwaway PostgreSQL 15 server for the 1M-record benchmark, as scripts/lib.sh start_postgres
// does it: initdb + pg_ctl in a temp folder on a loopback port, as the postgres user when we are
// root (initdb refuses root). Durability is off (fsync, synchronous_commit): this is a benchmark
// database thrown away at the end, and the seed's speed is what matters.
import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from './processes.ts';

const run = promisify(execFile);

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export type Postgres = { url: string; dir: string; port: number; stop: () => Promise<void> };

/**
 * Starts a PostgreSQL server tuned for bulk loading and big index builds.
 *
 * @example
 * const pg = await startPostgres(); try { ... pg.url ... } finally { await pg.stop(); }
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<Postgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wsc-bench-pg-'));
  const root = process.getuid?.() === 0;
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (bin: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, bin), ...args])
      : run(path.join(PG_BIN, bin), args);
  const port = await freePort();
  const options = {
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '100',
    // Sized for the 1M-record benchmark as a PostgreSQL serving it would be: the table (~0.7 GB)
    // and its indexes (~1.5 GB) in 2 GB of shared buffers (of 24 GB RAM; the usual advice is 25%),
    // and random reads priced as on SSD / page cache (1.1), not spinning disks (the default 4).
    shared_buffers: '2GB',
    effective_cache_size: '8GB',
    random_page_cost: '1.1',
    maintenance_work_mem: '512MB',
    work_mem: '16MB',
    max_wal_size: '4GB',
    checkpoint_timeout: '30min',
    ...settings,
  };
  const flags = [
    `-p ${port}`,
    `-k ${dir}`,
    '-h 127.0.0.1',
    ...Object.entries(options).map(([key, value]) => `-c ${key}=${value}`),
  ].join(' ');
  try {
    await as('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]);
    await as('pg_ctl', [
      '-D',
      path.join(dir, 'data'),
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      flags,
      'start',
    ]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    port,
    stop: async () => {
      await as('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']).catch(
        () => undefined,
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
