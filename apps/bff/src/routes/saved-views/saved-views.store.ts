// The saved views' table: every query is scoped to an owner (the session's owner id and region),
// so another user's view is simply not found. The handlers decide what a result means to the
// browser; this module only reads and writes rows.
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';

import type { RecordType, SavedView } from '@wsc/api-client';

import type { BffDatabase, SavedViewsTable } from '../../db/schema.ts';

/** A user keeps at most this many views per definition: a sidebar list, not a data store. */
export const MAX_VIEWS_PER_DEFINITION = 100;

/**
 * And at most this many in all (per owner and region). With the per-view size limit below, this
 * bounds `GET /bff/views` (every view of the user) to MAX_VIEWS_PER_USER x MAX_VIEW_BYTES.
 */
export const MAX_VIEWS_PER_USER = 500;

/** A view's stored text (name, filter, sort, columns as JSON) at most: the request body limit. */
export const MAX_VIEW_BYTES = 16 * 1024;

/** A view id: anything else is not found without asking the store. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the `search` jsonb column holds. */
const StoredSearchSchema = z.object({
  filter: z.string().catch(''),
  sort: z.string().catch(''),
  columns: z.array(z.string()).catch([]),
});

export type ViewRow = Selectable<SavedViewsTable>;

/**
 * Whose views: the API's user id (extended) or the id derived from region and client id (hosted);
 * never an email someone typed.
 */
export type ViewOwner = { userId: string; region: string };

/**
 * A row as the routes answer it.
 *
 * @example
 * c.json(toView(row), 200);
 */
export function toView(row: ViewRow): SavedView {
  const raw = typeof row.search === 'string' ? (JSON.parse(row.search) as unknown) : row.search;
  const search = StoredSearchSchema.parse(raw ?? {});
  return {
    id: row.id,
    name: row.name,
    // Rows are only written through CreateViewSchema, which checks the record type.
    recordType: row.record_type as RecordType,
    alias: row.alias,
    filter: search.filter,
    sort: search.sort,
    columns: search.columns,
    isDefault: Boolean(row.is_default),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

/**
 * The stored size of a view: its name and its `search` JSON.
 *
 * @example
 * viewBytes('Open', JSON.stringify({ filter: '', sort: '', columns: [] })) > MAX_VIEW_BYTES; // false
 */
export function viewBytes(name: string, search: string): number {
  return Buffer.byteLength(name) + Buffer.byteLength(search);
}

/**
 * A unique index said no: PostgreSQL and PGlite both report SQLSTATE 23505.
 *
 * @example
 * if (isUniqueViolation(error)) throw nameTaken(input.name);
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}

/** A new view's row, its `search` already serialized. */
export type NewView = { name: string; recordType: string; alias: string; search: string };

/**
 * The saved views store over the BFF's database.
 *
 * @example
 * const views = savedViewsStore(store.db);
 * const row = await views.findOwned(owner, id);
 */
export function savedViewsStore(db: Kysely<BffDatabase>) {
  return {
    /** An owner's views (of one definition when given), in sidebar order, at most MAX_VIEWS_PER_USER. */
    list(owner: ViewOwner, definition?: { recordType: string; alias: string }) {
      let select = db
        .selectFrom('saved_views')
        .selectAll()
        .where('user_id', '=', owner.userId)
        .where('region', '=', owner.region);
      if (definition) {
        select = select
          .where('record_type', '=', definition.recordType)
          .where('alias', '=', definition.alias);
      }
      // Inserts keep a user under MAX_VIEWS_PER_USER; the limit also bounds rows stored before
      // that cap existed, so the answer never grows past it.
      return select
        .orderBy('record_type')
        .orderBy('alias')
        .orderBy(({ fn }) => fn('lower', ['name']))
        .orderBy('created_at')
        .limit(MAX_VIEWS_PER_USER)
        .execute();
    },

    /** The owner's view with this id; undefined for another owner's, or an id that is no UUID. */
    async findOwned(owner: ViewOwner, id: string): Promise<ViewRow | undefined> {
      if (!UUID.test(id)) return undefined;
      return db
        .selectFrom('saved_views')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', owner.userId)
        .where('region', '=', owner.region)
        .executeTakeFirst();
    },

    /** Does the owner have another view of this name (case-insensitive) for the definition? */
    async nameInUse(
      owner: ViewOwner,
      view: { recordType: string; alias: string; name: string },
      exceptId?: string,
    ): Promise<boolean> {
      let query = db
        .selectFrom('saved_views')
        .select('id')
        .where('user_id', '=', owner.userId)
        .where('region', '=', owner.region)
        .where('record_type', '=', view.recordType)
        .where('alias', '=', view.alias)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', view.name.toLowerCase()));
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /**
     * Inserts a view unless a cap binds: `per_definition` (MAX_VIEWS_PER_DEFINITION) or `per_user`
     * (MAX_VIEWS_PER_USER). A concurrent insert of the same name throws a unique violation.
     */
    async create(
      owner: ViewOwner,
      view: NewView,
      now: number,
    ): Promise<ViewRow | 'per_definition' | 'per_user'> {
      const { userId, region } = owner;
      return db.transaction().execute(async (trx) => {
        // One writer per owner at a time, so two concurrent creates cannot both pass the caps
        // (PostgreSQL across BFF instances; PGlite has one connection anyway).
        await sql`select pg_advisory_xact_lock(hashtextextended(${`saved_views:${region}:${userId}`}, 0))`.execute(
          trx,
        );
        const counts = await trx
          .selectFrom('saved_views')
          .select(({ fn }) => [
            fn.countAll<number | string>().as('total'),
            fn
              .count<number | string>('id')
              .filterWhere((eb) =>
                eb.and([eb('record_type', '=', view.recordType), eb('alias', '=', view.alias)]),
              )
              .as('here'),
          ])
          .where('user_id', '=', userId)
          .where('region', '=', region)
          .executeTakeFirstOrThrow();
        if (Number(counts.here) >= MAX_VIEWS_PER_DEFINITION) return 'per_definition';
        if (Number(counts.total) >= MAX_VIEWS_PER_USER) return 'per_user';
        return trx
          .insertInto('saved_views')
          .values({
            user_id: userId,
            region,
            name: view.name,
            record_type: view.recordType,
            alias: view.alias,
            search: view.search,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    /** Replaces a view's name and `search`. */
    update(id: string, change: { name: string; search: string }, now: number) {
      return db
        .updateTable('saved_views')
        .set({ ...change, updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('saved_views').where('id', '=', id).execute();
    },

    /**
     * One default per definition per owner: clears the old one and sets the new one in one
     * transaction (the partial unique index backs this up against concurrent requests).
     */
    setDefault(owner: ViewOwner, row: ViewRow) {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('saved_views')
          .set({ is_default: false })
          .where('user_id', '=', owner.userId)
          .where('region', '=', owner.region)
          .where('record_type', '=', row.record_type)
          .where('alias', '=', row.alias)
          .where('is_default', '=', true)
          .where('id', '!=', row.id)
          .execute();
        return trx
          .updateTable('saved_views')
          .set({ is_default: true })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    /** Back to "no default": the definition opens with its plain list again. */
    clearDefault(id: string) {
      return db
        .updateTable('saved_views')
        .set({ is_default: false })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type SavedViewsStore = ReturnType<typeof savedViewsStore>;
