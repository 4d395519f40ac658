// A throw-away PostgreSQL 15 cluster on a loopback port, for the BFF_DATABASE_URL path.
// Uses TEST_BFF_DATABASE_URL (or TEST_DATABASE_URL) when given; else initdb + pg_ctl as the postgres user in a temp folder.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

const givenUrl = process.env.TEST_BFF_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** True when a database can be had: a given URL, or local binaries we may run as postgres. */
export const postgresAvailable =
  Boolean(givenUrl) || (existsSync(`${BIN}/initdb`) && process.getuid?.() === 0);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Start (or borrow) a PostgreSQL database.
 *
 * @example
 * const pg = await startPostgres();
 * const store = await openStore({ kind: 'postgres', url: pg.url });
 * await pg.stop();
 */
export async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (givenUrl) return { url: givenUrl, stop: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), 'bff-pg-'));
  await chmod(dir, 0o777);
  const data = path.join(dir, 'data');
  const asPostgres = (cmd: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', `${BIN}/${cmd}`, ...args]);
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  await asPostgres('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
