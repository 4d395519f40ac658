// The record search behind `GET /v1/{recordType}/{alias}`, from its query text to the page: the
// handler resolves the definition and shapes the reply; everything in between is here.
import type { PageQuery } from '@wsc/api-client';
import type { Paging } from '@wsc/api-client/strict';

import type { AppDeps } from '../lib/types.ts';
import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import { badRequest } from '../lib/errors.ts';
import { buildPaging, encodeCursor, parsePageQuery } from '../lib/paging.ts';
import { recordBody } from '../records/records.ts';
import { withSearchLimits } from './limits.ts';
import { parseSearch, resolvedSearchStatements, runSearch } from './statements.ts';

/** The search's query parameters as the request gave them. */
export type RecordSearchQuery = {
  /** RSQL; blank or absent for every record. */
  filter?: string | undefined;
  /** `-Created At,Title`; ignored in the hosted profile, which takes no sort. */
  sort?: string | undefined;
  /** `first`/`after`/`last`/`before`, validated by the route (parsePageQuery). */
  page: PageQuery;
};

/** One page of records in the profile's flat shape, each with the cursor of its position. */
export type RecordSearchPage = {
  paging: Paging;
  total: number;
  items: Array<{ cursor: string; data: Record<string, string> }>;
};

type RecordCursor = { k: Array<string | null>; s: number };

function readRecordCursor(
  cursor: unknown,
  keyCount: number,
  field: string,
): RecordCursor | undefined {
  if (cursor === undefined) return undefined;
  const value = cursor as Partial<RecordCursor> | null;
  const valid =
    value !== null &&
    typeof value === 'object' &&
    Number.isSafeInteger(value.s) &&
    Array.isArray(value.k) &&
    value.k.length === keyCount &&
    value.k.every((item) => item === null || typeof item === 'string');
  if (!valid)
    throw badRequest('Invalid cursor', [
      { field, message: 'Malformed, tampered or from another list' },
    ]);
  return value as RecordCursor;
}

/**
 * Searches a definition's records: RSQL filter, sort (extended profile), keyset paging and the
 * exact total, under the credential's search time limits (limits.ts). Throws the 400s of a bad
 * filter, sort or cursor and the 429/503 of the limits.
 *
 * @example
 * const { paging, total, items } = await searchRecordPage(deps, principal.clientId, definition, {
 *   filter: 'Status==Open',
 *   sort: '-Created At',
 *   page: { first: 50 },
 * });
 */
export async function searchRecordPage(
  deps: AppDeps,
  clientId: string,
  definition: WorkspaceDefinition,
  query: RecordSearchQuery,
): Promise<RecordSearchPage> {
  const { cursorKey, config } = deps;
  const profile = config.profile;
  const { filter, keys } = parseSearch(
    definition,
    query.filter,
    profile === 'hosted' ? undefined : query.sort,
    profile,
  );
  // Cursors are bound to the definition and the sort: reusing one under another sort is a 400.
  const scope = `records:${definition.alias}:${keys.map((key) => `${key.descending ? '-' : ''}${key.field.name}`).join(',')}`;
  const page = parsePageQuery(query.page, cursorKey, scope);
  const forward = page.direction === 'forward';
  const cursor = readRecordCursor(page.cursor, keys.length, forward ? 'after' : 'before');
  const search = {
    alias: definition.alias,
    filter,
    keys,
    ...(cursor ? { cursor: { values: cursor.k, seq: cursor.s } } : {}),
    forward,
    limit: page.limit + 1,
  };
  const { rows: fetched, total } = await withSearchLimits(deps, clientId, async (conn) =>
    runSearch(conn, await resolvedSearchStatements(conn, search, deps)),
  );
  const more = fetched.length > page.limit;
  const rows = fetched.slice(0, page.limit);
  if (!forward) rows.reverse();
  const items = rows.map((row) => {
    const sortValues = keys.map((_, index) => row[`k${index}`] ?? null);
    return {
      cursor: encodeCursor(cursorKey, scope, { k: sortValues, s: row.seq }),
      data: recordBody(row, definition, profile),
    };
  });
  const paging = buildPaging(
    page,
    items.map((item) => item.cursor),
    more,
  );
  return { paging, total, items };
}
