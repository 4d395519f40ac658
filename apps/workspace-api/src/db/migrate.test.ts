// Migrations on PostgreSQL in a schema of their own (how tests and shared servers isolate data):
// an already migrated `public` on the search path must not make them skip this schema's tables.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('migrations in a schema (PostgreSQL)', () => {
  it('create their tables even when public on the search path is already migrated', async () => {
    const name = `wsc_mig_${randomBytes(4).toString('hex')}`;
    const admin = await openDatabase({ databaseUrl: url, poolSize: 1 });
    await sql.raw(`create database ${name}`).execute(admin.db);
    const other = new URL(url ?? '');
    other.pathname = `/${name}`;
    try {
      const publicDb = await openDatabase({ databaseUrl: other.toString(), poolSize: 1 });
      await migrateToLatest(publicDb.db);
      await publicDb.close();
      const isolated = await openDatabase({
        databaseUrl: other.toString(),
        schema: 't_isolated',
        poolSize: 1,
      });
      await migrateToLatest(isolated.db);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_tables
        where schemaname = 't_isolated' and tablename in ('records', 'users', 'settings')`.execute(
        isolated.db,
      );
      await isolated.close();
      expect(rows[0]?.n).toBe(3);
    } finally {
      // pool.end() resolves before its sockets have closed: wait for the server to see them go, so
      // the drop terminates no connection (a client ending while its backend is killed emits an
      // error nobody is listening to any more).
      for (let i = 0; i < 100; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = ${name}`.execute(admin.db);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.db);
      await admin.close();
    }
  });
});
