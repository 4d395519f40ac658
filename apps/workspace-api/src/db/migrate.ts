// Runs the in-code migrations (no files read at run time, so it works the same under tsx and tests).
import { randomBytes } from 'node:crypto';
import type { Migration, MigrationProvider } from 'kysely';
import { Migrator, sql } from 'kysely';

import type { Db } from './client.ts';
import * as initial from './migrations/0001-initial.ts';
import * as dataStatistics from './migrations/0002-data-statistics.ts';
import * as groupWatchers from './migrations/0003-group-watchers.ts';
import * as authNotify from './migrations/0004-auth-notify.ts';

const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-data-statistics': dataStatistics,
  '0003-group-watchers': groupWatchers,
  '0004-auth-notify': authNotify,
};

class InCodeProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * Brings the schema up to date and makes sure the install-wide secrets exist.
 *
 * @example
 * await migrateToLatest(db);
 */
export async function migrateToLatest(db: Db): Promise<void> {
  // Keep the migration bookkeeping in the schema the tables go to (the first on the search path).
  // Unqualified, kysely would find another schema's `kysely_migration` through the search path
  // (tests run in their own schema with `public` after it) and skip creating this schema's tables.
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  const schema = rows[0]?.schema ?? undefined;
  const migrator = new Migrator({
    db,
    provider: new InCodeProvider(),
    ...(schema && schema !== 'public' ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '?'} failed`, { cause: error });
  }
  // The key that signs paging cursors: random per installation, stable across restarts.
  await db
    .insertInto('settings')
    .values({ key: 'cursor_key', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/**
 * Reads a setting written by migrateToLatest.
 *
 * @example
 * const key = await readSetting(db, 'cursor_key');
 */
export async function readSetting(db: Db, key: string): Promise<string> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) throw new Error(`Missing setting ${key}; run migrations first`);
  return row.value;
}
