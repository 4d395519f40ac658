// Who besides its owner may read a saved view: rows of `saved_view_shares`, a group (its id and
// the name it had when shared) or everyone in the region (group_id ''). This module reads and
// writes those rows; the handlers decide who may see what (membership is checked at read time
// by group-membership.ts, never stored).
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';

import type { ViewShares } from '@wsc/api-client';

import type { BffDatabase, SavedViewSharesTable } from '../../db/schema.ts';
import type { ViewOwner, ViewRow } from './saved-views.store.ts';
import { inDefinitions } from '../../db/in-definitions.ts';

/** An owner shares at most this many of their views at a time (each with up to 10 groups). */
export const MAX_SHARED_VIEWS_PER_USER = 50;

/** `GET /bff/views/shared` answers at most this many views, the most recently changed first. */
export const MAX_SHARED_LISTED = 500;

/**
 * Membership is checked for at most this many distinct groups per read (the groups most recently
 * shared with in the region). Every group was checked to exist when it was shared, so this binds
 * the upstream calls of one read even in an organisation with very many groups.
 */
export const MAX_GROUPS_CHECKED = 100;

/**
 * Of those, one sharer's groups count at most this many (their most recent): one person sharing
 * with very many groups can neither push everyone else's groups out of the window nor make each
 * reader's read cost more than this many membership checks for them (ADR 0027).
 */
export const MAX_GROUPS_PER_SHARER = 10;

/** `group_id` of a share with everyone signed in to the region. */
export const EVERYONE = '';

export type ShareRow = Selectable<SavedViewSharesTable>;

/**
 * Share rows as the owner sees them.
 *
 * @example
 * sharesOf([{ group_id: '', ... }]); // { everyone: true, groups: [] }
 */
export function sharesOf(rows: readonly ShareRow[]): ViewShares {
  return {
    everyone: rows.some((r) => r.group_id === EVERYONE),
    groups: rows
      .filter((r) => r.group_id !== EVERYONE)
      .map((r) => ({ id: r.group_id, name: r.group_name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * The shares store over the BFF's database.
 *
 * @example
 * const shares = viewSharesStore(store.db);
 * await shares.replace(owner, row, { everyone: true, groups: [] }, 'Ada Lovelace', now);
 */
export function viewSharesStore(db: Kysely<BffDatabase>) {
  return {
    /** The share rows of these views (the owner's own list). */
    async of(viewIds: readonly string[]): Promise<ShareRow[]> {
      if (viewIds.length === 0) return [];
      return db
        .selectFrom('saved_view_shares')
        .selectAll()
        .where('view_id', 'in', viewIds)
        .execute();
    },

    /** Who another owner's view in the viewer's region is shared with (group ids, EVERYONE). */
    async audienceOf(viewer: ViewOwner, viewId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('saved_view_shares')
        .innerJoin('saved_views', 'saved_views.id', 'saved_view_shares.view_id')
        .select('saved_view_shares.group_id')
        .where('saved_view_shares.view_id', '=', viewId)
        .where('saved_views.region', '=', viewer.region)
        .where('saved_views.user_id', '!=', viewer.userId)
        .execute();
      return rows.map((r) => r.group_id);
    },

    /**
     * The distinct groups other owners shared views with in the region, most recently shared
     * first, at most MAX_GROUPS_CHECKED and at most MAX_GROUPS_PER_SHARER of each sharer: the
     * groups whose membership a read has to check.
     */
    async groupsSharedWith(viewer: ViewOwner): Promise<string[]> {
      const perSharer = db
        .selectFrom('saved_view_shares')
        .innerJoin('saved_views', 'saved_views.id', 'saved_view_shares.view_id')
        .select('saved_view_shares.group_id')
        .select(sql<string>`max(saved_view_shares.created_at)`.as('latest'))
        .select(
          sql<number>`row_number() over (partition by saved_views.user_id order by max(saved_view_shares.created_at) desc)`.as(
            'rank',
          ),
        )
        .where('saved_view_shares.region', '=', viewer.region)
        .where('saved_view_shares.group_id', '!=', EVERYONE)
        .where('saved_views.user_id', '!=', viewer.userId)
        .groupBy(['saved_view_shares.group_id', 'saved_views.user_id']);
      const rows = await db
        .selectFrom(perSharer.as('shared'))
        .select('shared.group_id')
        .select(({ fn }) => fn.max('shared.latest').as('latest'))
        .where('shared.rank', '<=', MAX_GROUPS_PER_SHARER)
        .groupBy('shared.group_id')
        .orderBy('latest', 'desc')
        .limit(MAX_GROUPS_CHECKED)
        .execute();
      return rows.map((r) => r.group_id);
    },

    /**
     * Other owners' views in the viewer's region shared with everyone or with one of `groups`
     * (the viewer's, checked by the caller), of one definition when given and only of
     * `definitions` (those the viewer may see); newest first, at most MAX_SHARED_LISTED. With
     * `id`, only that view.
     */
    visible(
      viewer: ViewOwner,
      groups: readonly string[],
      options: {
        definition?: { recordType: string; alias: string };
        definitions?: readonly { recordType: string; alias: string }[];
        id?: string;
      } = {},
    ): Promise<ViewRow[]> {
      const audiences = [EVERYONE, ...groups];
      let select = db
        .selectFrom('saved_views')
        .selectAll()
        .where('region', '=', viewer.region)
        .where('user_id', '!=', viewer.userId)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('saved_view_shares')
              .select(sql.lit(1).as('one'))
              .whereRef('saved_view_shares.view_id', '=', 'saved_views.id')
              .where('saved_view_shares.group_id', 'in', audiences),
          ),
        );
      if (options.definition) {
        select = select
          .where('record_type', '=', options.definition.recordType)
          .where('alias', '=', options.definition.alias);
      }
      const definitions = options.definitions;
      if (definitions) {
        select = select.where(inDefinitions(definitions));
      }
      if (options.id) select = select.where('id', '=', options.id);
      return select.orderBy('updated_at', 'desc').orderBy('id').limit(MAX_SHARED_LISTED).execute();
    },

    /**
     * Replaces a view's shares (empty: private again) and records the owner's shown name, unless
     * the owner would then share more than MAX_SHARED_VIEWS_PER_USER views.
     */
    async replace(
      owner: ViewOwner,
      view: ViewRow,
      shares: { everyone: boolean; groups: readonly { id: string; name: string }[] },
      sharedBy: { name: string; identity: string },
      now: number,
    ): Promise<'too_many' | ShareRow[]> {
      return db.transaction().execute(async (trx) => {
        // The same per-owner lock as creating a view: concurrent shares cannot pass the cap.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`saved_views:${owner.region}:${owner.userId}`}, 0))`.execute(
          trx,
        );
        const rows = [
          ...(shares.everyone ? [{ id: EVERYONE, name: '' }] : []),
          ...shares.groups,
        ].map((g) => ({
          view_id: view.id,
          region: owner.region,
          group_id: g.id,
          group_name: g.name,
          created_at: now,
        }));
        if (rows.length > 0) {
          const shared = await trx
            .selectFrom('saved_view_shares')
            .innerJoin('saved_views', 'saved_views.id', 'saved_view_shares.view_id')
            .select(({ fn }) => fn.count<number | string>('saved_views.id').distinct().as('n'))
            .where('saved_views.user_id', '=', owner.userId)
            .where('saved_views.region', '=', owner.region)
            .where('saved_views.id', '!=', view.id)
            .executeTakeFirstOrThrow();
          if (Number(shared.n) >= MAX_SHARED_VIEWS_PER_USER) return 'too_many';
        }
        await trx.deleteFrom('saved_view_shares').where('view_id', '=', view.id).execute();
        if (rows.length === 0) return [];
        await trx
          .updateTable('saved_views')
          .set({ shared_by: sharedBy.name, shared_by_identity: sharedBy.identity })
          .where('id', '=', view.id)
          .execute();
        return trx.insertInto('saved_view_shares').values(rows).returningAll().execute();
      });
    },
  };
}

export type ViewSharesStore = ReturnType<typeof viewSharesStore>;
