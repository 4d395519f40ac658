// The BFF's saved views API (`/bff/views`), shared by the sidebar, the records page and the
// command palette. Views live in the BFF's own store, per user and region.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import type { RecordType } from '@wsc/api-client';
import { ApiError, apiErrorFromResponse, RecordTypeSchema } from '@wsc/api-client';

export const SavedViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  recordType: RecordTypeSchema,
  alias: z.string(),
  filter: z.string(),
  sort: z.string(),
  columns: z.array(z.string()),
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

const SavedViewListSchema = z.object({ items: z.array(SavedViewSchema) });

/** What a view stores: the list's URL state. */
export interface ViewState {
  filter: string;
  sort: string;
  columns: string[];
}

async function bffRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  init: RequestInit = {},
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      ...init,
      // The BFF refuses state-changing /bff requests without it (CSRF defence).
      headers: { Accept: 'application/json', 'X-CSRF': '1', ...init.headers },
    });
  } catch (cause) {
    throw new ApiError({ status: 0, code: 'network_error', cause });
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  if (response.status === 204) return schema.parse(undefined);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      detail: `Unexpected reply from ${path}`,
    });
  }
  return parsed.data;
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * The signed-in user's saved views: all of them (sidebar, palette), or one definition's.
 *
 * @example
 * const { data } = useQuery(savedViewsQueryOptions());
 */
export function savedViewsQueryOptions() {
  return queryOptions({
    queryKey: ['saved-views'],
    queryFn: async ({ signal }) =>
      (await bffRequest('/bff/views', SavedViewListSchema, { signal })).items,
    staleTime: 60_000,
  });
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
  return bffRequest('/bff/views', SavedViewSchema, json('POST', input));
}

/**
 * `PUT /bff/views/:id`: renames a view or replaces what it stores.
 *
 * @example
 * await updateSavedView(view.id, { filter: 'Status==Pending' });
 */
export function updateSavedView(id: string, patch: Partial<ViewState & { name: string }>) {
  return bffRequest(`/bff/views/${encodeURIComponent(id)}`, SavedViewSchema, json('PUT', patch));
}

/**
 * `DELETE /bff/views/:id`.
 *
 * @example
 * await deleteSavedView(view.id);
 */
export async function deleteSavedView(id: string): Promise<void> {
  await bffRequest(`/bff/views/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

/**
 * Makes a view its definition's default (`PUT .../default`), or stops it being one (`DELETE`).
 *
 * @example
 * await setDefaultView(view.id, true);
 */
export function setDefaultView(id: string, isDefault: boolean) {
  return bffRequest(`/bff/views/${encodeURIComponent(id)}/default`, SavedViewSchema, {
    method: isDefault ? 'PUT' : 'DELETE',
  });
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
