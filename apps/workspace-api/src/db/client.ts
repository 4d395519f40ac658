// Opens the one SQL dialect we speak, PostgreSQL: embedded PGlite by default, a pg Pool for a URL.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

import type { ListenHandlers } from '@wsc/pglite-kysely';
import {
  initPgliteDir,
  listenPglite,
  listenPostgres,
  PGliteDialect,
  pgliteStartParams,
} from '@wsc/pglite-kysely';

import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether pg_trgm is installed, so `=lk=` searches can use trigram GIN indexes. */
  trgm: boolean;
  /** Whether btree_gin is installed, so NUMBER fields can be columns of the search GIN index. */
  btreeGin: boolean;
  close: () => Promise<void>;
  /**
   * Listens for NOTIFY on `channel` until the returned stop is called. `onState(false)` says
   * notifications may be missed from now on (the listening connection dropped; it reconnects
   * every second), `onState(true)` that they arrive again. Never rejects: a database that cannot
   * be reached yet starts out not listening.
   */
  listen: (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;
  /** The embedded instance, when PGlite (for dumps in tests). */
  pglite?: PGlite;
};

export type OpenDatabaseOptions = {
  /** PostgreSQL URL; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; absent means in memory. */
  pgliteDir?: string | undefined;
  /** PostgreSQL only: schema to work in (created when missing), for isolated test runs. */
  schema?: string | undefined;
  /** PostgreSQL only: pool size. */
  poolSize?: number | undefined;
  /** PGlite only: start from a dumped data folder (`dumpDataDir`), skipping initdb (tests). */
  pgliteTemplate?: Blob | undefined;
  /** PGlite only: PostgreSQL `shared_buffers` in MiB; default PGLITE_SHARED_BUFFERS_MB. */
  pgliteSharedBuffersMb?: number | undefined;
};

/**
 * Default PGlite `shared_buffers`, in MiB. PGlite's own default is PostgreSQL's 128 MB, all of it
 * resident from the moment PGlite starts (it lives in the WASM memory, which never shrinks): the
 * largest single part of the API's RSS. At 64 MB the 100k-record triage searches cost the same
 * CPU as at 128 MB, and a page that is not in the pool is re-read from the OS page cache for
 * ~7 µs. Figures in docs/benchmarks.md ("Workspace API memory").
 */
export const PGLITE_SHARED_BUFFERS_MB = 64;

// node-postgres returns int8 as a string by default; PGlite returns a number. Align on number
// (our bigints are sequence values, far below 2^53).
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * Opens PGlite or PostgreSQL and installs pg_trgm and btree_gin when possible.
 *
 * @example
 * const { db, close } = await openDatabase({}); // in-memory PGlite
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
      throw new Error(`Invalid schema name: ${schema}`);
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // The schema name is validated above; extensions live in public.
      ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    });
    if (schema) await pool.query(`create schema if not exists ${schema}`);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const trgm = await installExtension(db, 'pg_trgm');
    const btreeGin = await installExtension(db, 'btree_gin');
    // Listening connections end with the handle, whoever closes it.
    const listeners = new Set<() => Promise<void>>();
    const listen = async (channel: string, handlers: ListenHandlers) => {
      const stopOne = await listenPostgres(options.databaseUrl ?? '', channel, handlers);
      const stop = async () => {
        listeners.delete(stop);
        await stopOne();
      };
      listeners.add(stop);
      return stop;
    };
    const close = async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    };
    return { db, kind: 'postgres', trgm, btreeGin, close, listen };
  }
  // A new folder is created by initdb in a child process (WASM memory never shrinks, and initdb's
  // would stay in this process); a template is unpacked by PGlite itself (no initdb).
  if (options.pgliteDir && !options.pgliteTemplate) await initPgliteDir(options.pgliteDir);
  else if (options.pgliteDir) await fs.mkdir(path.dirname(options.pgliteDir), { recursive: true });
  const pglite = await PGlite.create({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    ...(options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {}),
    extensions: { pg_trgm, btree_gin },
    startParams: pgliteStartParams(options.pgliteSharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const trgm = await installExtension(db, 'pg_trgm');
  const btreeGin = await installExtension(db, 'btree_gin');
  // One process owns the embedded database: its notifications cannot be missed.
  const listen = (channel: string, handlers: ListenHandlers) =>
    listenPglite(pglite, channel, handlers);
  return { db, kind: 'pglite', trgm, btreeGin, close: () => db.destroy(), listen, pglite };
}

/** Installs a contrib extension the search indexes use; false when the server does not have it. */
async function installExtension(db: Db, name: 'pg_trgm' | 'btree_gin'): Promise<boolean> {
  // Several test files may race to create the extension in one database; retry once on conflict.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await sql`create extension if not exists ${sql.id(name)} with schema public`.execute(db);
      return true;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== '23505' && code !== '42710') return false; // not available: indexes without it
    }
  }
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_extension where extname = ${name}`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}
