// Ordered, append-only migrations of the BFF store; the same SQL runs on PGlite and PostgreSQL.
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { Migrator, sql } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('user_json', 'jsonb', (c) => c.notNull())
        .addColumn('token_sealed', 'text')
        .addColumn('token_refresh_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      // The sweeper deletes by absolute expiry.
      await db.schema
        .createIndex('sessions_expires_at')
        .on('sessions')
        .column('expires_at')
        .execute();
    },
  },
  '0002_saved_views_and_preferences': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('saved_views')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('record_type', 'text', (c) => c.notNull())
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('search', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('saved_views_owner_name', ['user_id', 'region', 'name'])
        .execute();
      await db.schema
        .createTable('user_preferences')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'region', 'key'])
        .execute();
    },
  },
  // Saved views: a name is unique per definition (case-insensitively), not across all of a user's
  // definitions, and each user has at most one default view per definition (enforced here, so
  // two concurrent "make default" requests cannot both win).
  '0003_saved_views_per_definition': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('saved_views').dropConstraint('saved_views_owner_name').execute();
      await db.schema
        .alterTable('saved_views')
        .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      await sql`create unique index saved_views_owner_definition_name on saved_views (user_id, region, record_type, alias, lower(name))`.execute(
        db,
      );
      await sql`create unique index saved_views_one_default on saved_views (user_id, region, record_type, alias) where is_default`.execute(
        db,
      );
    },
  },
  // Sessions keep the owner of their data apart from the person shown: hosted sessions have no
  // `/v1/me`, so their owner is derived from (region, client id). Older rows held the `/v1/me`
  // reply, whose id was the owner: filled in here, and read the same way by the store for rows an
  // older instance may still write during a rolling deploy. Plus the hosted workspace description.
  '0004_session_owner_and_workspace_definitions': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('owner_id', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('profile', 'text').execute();
      await sql`update sessions set owner_id = user_json->>'id', profile = 'extended' where owner_id is null`.execute(
        db,
      );
      await db.schema
        .createTable('workspace_definitions')
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('record_type', 'text', (c) => c.notNull())
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('definition', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_definitions_pk', ['region', 'record_type', 'alias'])
        .execute();
    },
  },
  // The failed sign-in limit, shared by every instance on this store instead of one per process.
  '0005_login_failures': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('login_failures')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_key_at')
        .on('login_failures')
        .columns(['key', 'at'])
        .execute();
      await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
    },
  },
  // Shared views: who besides the owner may read a view (a group, or everyone in the region:
  // group_id ''), removed with the view; and the owner's name as it was shown when they shared.
  '0006_shared_views': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('saved_view_shares')
        .addColumn('view_id', 'uuid', (c) =>
          c.notNull().references('saved_views.id').onDelete('cascade'),
        )
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('group_id', 'text', (c) => c.notNull())
        .addColumn('group_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('saved_view_shares_pk', ['view_id', 'group_id'])
        .execute();
      await db.schema
        .createIndex('saved_view_shares_region_group')
        .on('saved_view_shares')
        .columns(['region', 'group_id'])
        .execute();
      await db.schema.alterTable('saved_views').addColumn('shared_by', 'text').execute();
    },
  },
  // Bulk runs: what a bulk change wrote and each record's previous values, per owner and region,
  // kept 7 days so the console can undo a run after a reload (routes/bulk-runs). Records live in
  // one jsonb value per run: written once, read whole, bounded by the route (5,000 records, 1 MiB).
  '0007_bulk_runs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('bulk_runs')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('record_type', 'text', (c) => c.notNull())
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('changes', 'jsonb', (c) => c.notNull())
        .addColumn('records', 'jsonb', (c) => c.notNull())
        .addColumn('record_count', 'integer', (c) => c.notNull())
        .addColumn('undo', 'jsonb')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bulk_runs_owner')
        .on('bulk_runs')
        .columns(['user_id', 'region', 'created_at'])
        .execute();
      // The purge deletes by absolute expiry.
      await db.schema
        .createIndex('bulk_runs_expires_at')
        .on('bulk_runs')
        .column('expires_at')
        .execute();
    },
  },
  // Who has which record open, shared by every BFF instance on the store (ADR 0023): one row per
  // live event stream, kept alive by its instance and gone once `expires_at` passes.
  '0008_presence': {
    async up(db) {
      await db.schema
        .createTable('presence')
        .addColumn('connection_id', 'text', (c) => c.primaryKey())
        .addColumn('session_hash', 'text', (c) => c.notNull())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('record_type', 'text')
        .addColumn('alias', 'text')
        .addColumn('record_id', 'text')
        .addColumn('editing', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('since', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      // A region's open records are re-read on every change; the sweep deletes by expiry.
      await db.schema.createIndex('presence_region').on('presence').column('region').execute();
      await db.schema
        .createIndex('presence_expires_at')
        .on('presence')
        .column('expires_at')
        .execute();
      await db.schema
        .createIndex('presence_instance')
        .on('presence')
        .column('instance_id')
        .execute();
    },
  },
  // The record history (routes/history, ADR 0024): one append-only row per field of each change made
  // through the console, per region. Read newest first for one record, and by the administrators'
  // filters (user, record type, time); the id orders both (it grows with every insert).
  '0009_record_history': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('record_history')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('change_id', 'uuid', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('record_type', 'text', (c) => c.notNull())
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('before', 'jsonb')
        .addColumn('after', 'jsonb')
        .addColumn('source', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('record_history_record')
        .on('record_history')
        .columns(['region', 'record_type', 'alias', 'record_id', 'id'])
        .execute();
      await db.schema
        .createIndex('record_history_actor')
        .on('record_history')
        .columns(['region', 'actor_id', 'id'])
        .execute();
      // The time filters, and the retention sweep by age.
      await db.schema
        .createIndex('record_history_at')
        .on('record_history')
        .columns(['region', 'at'])
        .execute();
    },
  },
  // Who did it, and how much of it is kept (ADR 0026). Every history row, presence row and shared
  // view carries the identity kind of its actor next to the name. Rows from before are marked as
  // follows: an owner id shaped as a UUID version 5 is a hosted session's (identities.ts
  // ownerIdFor), whose name may have been a typed email's looked-up name, so `self`, its name
  // marked " (unverified)"; any other id is an extended session's `/v1/me` user: `api`. The column's default
  // is `self` too, so a row an older instance writes during a rolling deploy is never shown as
  // verified. Plus: a marker for a change past its author's daily budget (`not_kept`), the
  // per-person daily usage that budget is counted in, and an index for the administrators' filter
  // by definition (the actor and time filters have theirs since 0009).
  '0010_history_identity_and_budget': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('record_history')
        .addColumn('identity', 'text', (c) => c.notNull().defaultTo('self'))
        .execute();
      await sql`update record_history set identity = 'api' where actor_id !~* ${HOSTED_OWNER_ID}`.execute(
        db,
      );
      // A name of a `self` row ends in " (unverified)" (lib/people.ts): older rows' too, so every
      // reader, the CSV and the console's sidebar included, shows them as what they are.
      await sql`update record_history set actor_name = actor_name || ${UNVERIFIED}
        where identity = 'self' and right(actor_name, ${UNVERIFIED.length}) <> ${UNVERIFIED}`.execute(
        db,
      );
      await db.schema
        .alterTable('record_history')
        .addColumn('not_kept', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema
        .createIndex('record_history_definition')
        .on('record_history')
        .columns(['region', 'record_type', 'alias', 'id'])
        .execute();
      await db.schema
        .alterTable('presence')
        .addColumn('user_identity', 'text', (c) => c.notNull().defaultTo('self'))
        .execute();
      await db.schema.alterTable('saved_views').addColumn('shared_by_identity', 'text').execute();
      await sql`update saved_views set shared_by_identity = case when user_id ~* ${HOSTED_OWNER_ID} then 'self' else 'api' end where shared_by is not null`.execute(
        db,
      );
      await sql`update saved_views set shared_by = shared_by || ${UNVERIFIED}
        where shared_by_identity = 'self' and right(shared_by, ${UNVERIFIED.length}) <> ${UNVERIFIED}`.execute(
        db,
      );
      // One row per person and UTC day (days since the epoch); swept with the history.
      await db.schema
        .createTable('history_budget')
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('rows', 'bigint', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('markers', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('history_budget_pk', ['actor_id', 'day'])
        .execute();
      await db.schema
        .createIndex('history_budget_day')
        .on('history_budget')
        .column('day')
        .execute();
    },
  },
  // One person cannot crowd out the others (ADR 0027): a sign-in finds that person's sessions
  // past the cap (newest first), and opening a stream counts that person's live streams on every
  // instance. 0010 is the record history's identity and budget, added beside this one.
  '0011_people_limits': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('sessions_owner_created')
        .on('sessions')
        .columns(['owner_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('presence_user')
        .on('presence')
        .columns(['user_id', 'expires_at'])
        .execute();
    },
  },
};

/** What a `self` name ends with (lib/people.ts UNVERIFIED_SUFFIX; copied: migrations stay as written). */
const UNVERIFIED = ' (unverified)';

/** A UUID version 5 (the hosted owner ids of identities.ts `ownerIdFor`), as a regex. */
const HOSTED_OWNER_ID = '^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

function migrator(db: Kysely<unknown>): Migrator {
  return new Migrator({
    db,
    provider,
    migrationTableName: 'bff_migrations',
    migrationLockTableName: 'bff_migrations_lock',
  });
}

/**
 * Bring the store's schema up to date; throws on the first failing migration.
 *
 * @example
 * await migrateToLatest(db);
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Bring the schema to one named migration (tests of a later migration over older rows).
 *
 * @example
 * await migrateTo(db, '0003_saved_views_per_definition');
 */
export async function migrateTo(db: Kysely<unknown>, name: string): Promise<void> {
  if (!(name in migrations)) throw new RangeError(`No migration named ${name}`);
  const { error } = await migrator(db).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
