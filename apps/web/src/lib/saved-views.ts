// The BFF's saved views API (`/bff/views`), shared by the sidebar, the records page and the
// command palette. Views live in the BFF's own store, per user and region.
import { queryOptions } from '@tanstack/react-query';

import type { RecordType, SavedView, ViewSharesInput } from '@wsc/api-client';

import { bff } from '@/lib/bff.ts';

/** What a view stores: the list's URL state. */
export interface ViewState {
  filter: string;
  sort: string;
  columns: string[];
}

/**
 * The signed-in user's saved views: all of them (sidebar, palette), or one definition's.
 *
 * @example
 * const { data } = useQuery(savedViewsQueryOptions());
 */
export function savedViewsQueryOptions() {
  return queryOptions({
    queryKey: ['saved-views'],
    queryFn: async ({ signal }) => (await bff.savedViews.list(undefined, { signal })).items,
    staleTime: 60_000,
  });
}

/**
 * Other people's views shared with the signed-in user (read-only), and whether views shared with
 * a group can reach them. Under the same key prefix as the own views, so one invalidation
 * refreshes both.
 *
 * @example
 * const { data } = useQuery(sharedViewsQueryOptions());
 */
export function sharedViewsQueryOptions() {
  return queryOptions({
    queryKey: ['saved-views', 'shared'],
    queryFn: ({ signal }) => bff.savedViews.shared(undefined, { signal }),
    staleTime: 60_000,
  });
}

/**
 * `PUT /bff/views/:id/shares`: who else may read the view (replaces what was there).
 *
 * @example
 * await shareSavedView(view.id, { everyone: true, groups: [] });
 */
export function shareSavedView(id: string, input: ViewSharesInput) {
  return bff.savedViews.share(id, input);
}

/**
 * `DELETE /bff/views/:id/shares`: the view is private again.
 *
 * @example
 * await unshareSavedView(view.id);
 */
export function unshareSavedView(id: string) {
  return bff.savedViews.unshare(id);
}

/**
 * Whether an own view is shared with anyone.
 *
 * @example
 * isShared(view); // true when shared with everyone or a group
 */
export function isShared(view: SavedView): boolean {
  return Boolean(view.shares && (view.shares.everyone || view.shares.groups.length > 0));
}

/**
 * `POST /bff/views`: 409 when the name is taken for this definition, 400 for a bad filter.
 *
 * @example
 * await createSavedView({ name: 'Open', recordType: 'apps', alias: 'support-tickets', filter: 'Status==Open', sort: '', columns: [] });
 */
export function createSavedView(
  input: ViewState & { name: string; recordType: RecordType; alias: string },
) {
  return bff.savedViews.create(input);
}

/**
 * `PUT /bff/views/:id`: renames a view or replaces what it stores.
 *
 * @example
 * await updateSavedView(view.id, { filter: 'Status==Pending' });
 */
export function updateSavedView(id: string, patch: Partial<ViewState & { name: string }>) {
  return bff.savedViews.update(id, patch);
}

/**
 * `DELETE /bff/views/:id`.
 *
 * @example
 * await deleteSavedView(view.id);
 */
export async function deleteSavedView(id: string): Promise<void> {
  await bff.savedViews.delete(id);
}

/**
 * Makes a view its definition's default (`PUT .../default`), or stops it being one (`DELETE`).
 *
 * @example
 * await setDefaultView(view.id, true);
 */
export function setDefaultView(id: string, isDefault: boolean) {
  return bff.savedViews.setDefault(id, isDefault);
}

/**
 * The records list's search params for a view: what its link carries (plus `view` to mark it).
 *
 * @example
 * viewSearch(view); // { filter: 'Status==Open', sort: '-Created At', cols: ['id', 'Title'], view: '…' }
 */
export function viewSearch(view: SavedView) {
  return {
    filter: view.filter || undefined,
    sort: view.sort || undefined,
    cols: view.columns.length > 0 ? view.columns : undefined,
    view: view.id,
  };
}
