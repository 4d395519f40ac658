// Every change to who may sign in (users, credentials, tokens: deactivation, revocation, purge)
// notifies the `wsc_auth` channel once per statement, after it commits (NOTIFY is transactional).
// Each API process listens and forgets its cached token lookups (identity/token-cache.ts), so a
// change made by another process (the CLI, a second instance) takes effect there too.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

const TABLES = ['users', 'credentials', 'tokens'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function wsc_auth_changed() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('wsc_auth', tg_table_name);
      return null;
    end
    $$`.execute(db);
  for (const table of TABLES) {
    await sql`create trigger ${sql.id(`${table}_auth_changed`)}
      after update or delete or truncate on ${sql.table(table)}
      for each statement execute function wsc_auth_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger if exists ${sql.id(`${table}_auth_changed`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop function if exists wsc_auth_changed()`.execute(db);
}
