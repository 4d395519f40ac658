// A person's own saved views as their owner gets them, each with who else may read it: what
// `GET /bff/views` answers, and what a sign-in answers beside the session (the first records list
// looks for the person's default view before it shows a row, so a sign-in that brings the views
// along saves the console a round trip before its first screen).
import type { Kysely } from 'kysely';

import type { SavedView } from '@wsc/api-client';

import type { BffDatabase } from '../../db/schema.ts';
import type { ViewSharesStore } from './saved-views.shares.ts';
import type { SavedViewsStore, ViewOwner, ViewRow } from './saved-views.store.ts';
import { sharesOf, viewSharesStore } from './saved-views.shares.ts';
import { savedViewsStore, toView } from './saved-views.store.ts';

/**
 * Own views as their owner gets them: with who else may read each (one query for all shares).
 *
 * @example
 * const items = await withShares(shares, await views.list(owner));
 */
export async function withShares(
  shares: ViewSharesStore,
  rows: readonly ViewRow[],
): Promise<SavedView[]> {
  const all = await shares.of(rows.map((r) => r.id));
  return rows.map((row) => ({
    ...toView(row),
    shares: sharesOf(all.filter((s) => s.view_id === row.id)),
  }));
}

/** Reads an owner's views (of one definition when given), as `GET /bff/views` answers them. */
export type OwnViews = (
  owner: ViewOwner,
  definition?: { recordType: string; alias: string },
) => Promise<SavedView[]>;

/**
 * The reader of an owner's own views over these stores.
 *
 * @example
 * const listOwn = ownViewsReader({ views: savedViewsStore(db), shares: viewSharesStore(db) });
 * const items = await listOwn({ userId: session.ownerId, region: session.region });
 */
export function ownViewsReader(stores: {
  views: SavedViewsStore;
  shares: ViewSharesStore;
}): OwnViews {
  const { views, shares } = stores;
  return async (owner, definition) => withShares(shares, await views.list(owner, definition));
}

/**
 * The reader of an owner's own views over the BFF's store.
 *
 * @example
 * const ownViews = ownViewsIn(store.db);
 */
export function ownViewsIn(db: Kysely<BffDatabase>): OwnViews {
  return ownViewsReader({ views: savedViewsStore(db), shares: viewSharesStore(db) });
}
