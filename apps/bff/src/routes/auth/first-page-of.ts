// Which records list a sign-in leads to (issue 27 item 4): the console sends the page it signs in
// to (`next`, its own URL), and where that is a records list the BFF reads the list's first page
// beside the person's identity. The BFF serves this console, so it reads the console's URLs as the
// console does: `/records/{recordType}/{alias}` (and the record, or the triage queue, below it),
// with `filter`, `sort` and `cursor` in the query, each value JSON when it parses as JSON
// (TanStack Router's default search format). A reading that differs from the console's costs a
// wasted read, never wrong rows: the console keys the page by the list the BFF says it read.
import { z } from 'zod';

import { RecordTypeSchema, ViewAliasSchema } from '@wsc/api-client';

/** Records in a list's first page, as the console asks for them (RECORDS_FIRST_PAGE_SIZE). */
export const SIGN_IN_FIRST_PAGE_SIZE = 100;

const LIST_PATH = /^\/records\/([^/]+)\/([^/]+)(?:\/[^/]+)?\/?$/;

/** A list the sign-in may read: the rules of a saved view's list, and the record search's. */
export const FirstPageRequestSchema = z.object({
  recordType: RecordTypeSchema,
  alias: ViewAliasSchema,
  filter: z.string().max(4096).optional(),
  sort: z.string().max(1024).optional(),
  first: z.number().int().min(1).max(100),
});
export type FirstPageRequest = z.infer<typeof FirstPageRequestSchema>;

/** A search value as the console's router reads it: JSON when it parses, else the text. */
function searchText(params: URLSearchParams, key: string): string | undefined {
  const raw = params.get(key);
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    // Not a string: the list's search schema drops it.
    return typeof value === 'string' ? value : undefined;
  } catch {
    return raw;
  }
}

/**
 * The first page of the records list at `next` (a path on the console's origin), or undefined
 * when it is no records list, starts at a cursor, or has a relative date in its filter (resolved
 * against the definition's fields, which the console has only later).
 *
 * @example
 * firstPageOf('/records/apps/support?filter=Status%3D%3DOpen');
 * // { recordType: 'apps', alias: 'support', filter: 'Status==Open', first: 100 }
 */
export function firstPageOf(next: string | undefined): FirstPageRequest | undefined {
  if (next === undefined || !next.startsWith('/') || next.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(next, 'http://console.invalid');
  } catch {
    return undefined;
  }
  const match = LIST_PATH.exec(url.pathname);
  if (!match) return undefined;
  const filter = searchText(url.searchParams, 'filter');
  if (url.searchParams.has('cursor') || filter?.includes('{')) return undefined;
  let alias: string;
  try {
    alias = decodeURIComponent(match[2] ?? '');
  } catch {
    return undefined;
  }
  const request = FirstPageRequestSchema.safeParse({
    recordType: match[1],
    alias,
    filter,
    sort: searchText(url.searchParams, 'sort'),
    first: SIGN_IN_FIRST_PAGE_SIZE,
  });
  return request.success ? request.data : undefined;
}
