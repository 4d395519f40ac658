import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { Field, RecordType } from '@wsc/api-client';
import { isRsqlError, parse, resolveRelativeDates, serialize } from '@wsc/rsql';

import { api } from '@/lib/api.ts';

import { nextCursor } from './paging.ts';

/** How many records one page of a records list (the table, the triage queue) loads. */
const RECORDS_PAGE_SIZE = 100;

export interface RecordSearchParams {
  filter?: string | undefined;
  sort?: string | undefined;
  cursor?: string | undefined;
}

/** A record the per-record queries (comments, watchers, attachments, related items) are about. */
export interface RecordRef {
  recordType: RecordType;
  alias: string;
  id: string;
}

/**
 * The query keys of records and of what hangs off one record. Lists of a definition live under
 * `lists(type, alias)`, so one invalidation after a write refreshes the table, the triage queue
 * and the pickers together; one record lives under `detail(type, alias, id)`, and every record of
 * a definition under `details(type, alias)`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: recordKeys.lists('apps', 'support-tickets') });
 */
export const recordKeys = {
  lists: (recordType: RecordType, alias: string) => ['records', recordType, alias] as const,
  list: (recordType: RecordType, alias: string, params: RecordSearchParams) =>
    ['records', recordType, alias, params] as const,
  picker: (recordType: RecordType, alias: string, filter: string, sort: string | undefined) =>
    ['records', recordType, alias, 'picker', filter, sort] as const,
  details: (recordType: RecordType, alias: string) => ['record', recordType, alias] as const,
  detail: (recordType: RecordType, alias: string, id: string) =>
    ['record', recordType, alias, id] as const,
  count: (recordType: RecordType, alias: string) => ['record-count', recordType, alias] as const,
  assigned: (recordType: RecordType, alias: string, email: string, serverSort: boolean) =>
    ['assigned-records', recordType, alias, email, serverSort] as const,
  comments: (record: RecordRef) =>
    ['comments', record.recordType, record.alias, record.id] as const,
  watchers: (record: RecordRef) =>
    ['watchers', record.recordType, record.alias, record.id] as const,
  attachments: (record: RecordRef) =>
    ['attachments', record.recordType, record.alias, record.id] as const,
  related: (record: RecordRef) =>
    ['related-items', record.recordType, record.alias, record.id] as const,
};

/** The fields a filter is read against: names and types, enough to resolve relative dates. */
export type FilterFieldTypes = readonly Pick<Field, 'name' | 'type'>[];

/**
 * The filter as the API gets it: relative dates (`{today}`, `{last7d}`, `{now}`, ADR 0017)
 * resolved at `now` in the viewer's time zone: dates on DATE fields, UTC instants on DATETIME
 * fields. The URL, the cache key and saved views keep the relative text; only requests carry the
 * dates. Text that does not parse, or whose relative dates are invalid, goes as it is, so that
 * the API's 400 names the problem as for any other bad filter.
 *
 * @example
 * requestFilter('Due Date=={last7d}', definition.fields); // 'Due Date=ge=2026-03-05;Due Date=le=2026-03-11'
 */
export function requestFilter(
  filter: string | undefined,
  fields: FilterFieldTypes,
  now: Date = new Date(),
): string | undefined {
  if (!filter?.includes('{')) return filter || undefined;
  try {
    const node = parse(filter);
    const types = new Map(fields.map((f) => [f.name, f.type]));
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const resolved = resolveRelativeDates(node, (name) => types.get(name), { now, timeZone });
    return resolved === node ? filter : serialize(resolved);
  } catch (error) {
    if (isRsqlError(error)) return filter;
    throw error;
  }
}

/**
 * Cursor-paged record search, the one records list of the console: the table (pages start at the
 * URL's cursor, "Load more" follows each page's `end_cursor`) and the triage queue (from the first
 * page) read it, so entering triage from the list reuses its pages. `serverSort` false (the hosted
 * API has no `sort`): the sort stays out of the request and out of the cache key (the rows come in
 * the server's order), so changing it does not reload. Relative dates in the filter are
 * resolved against `fields` each time a page is fetched ({@link requestFilter}).
 *
 * @example
 * const query = useSuspenseInfiniteQuery(recordSearchQueryOptions('apps', 'support-tickets', search, true, definition.fields));
 */
export function recordSearchQueryOptions(
  recordType: RecordType,
  alias: string,
  params: RecordSearchParams,
  serverSort: boolean,
  fields: FilterFieldTypes,
) {
  const { filter, cursor } = params;
  const sort = serverSort ? params.sort : undefined;
  return infiniteQueryOptions({
    queryKey: recordKeys.list(recordType, alias, { filter, sort, cursor }),
    queryFn: ({ pageParam, signal }) =>
      api.searchRecords(recordType, alias, {
        filter: requestFilter(filter, fields),
        sort: sort || undefined,
        first: RECORDS_PAGE_SIZE,
        after: pageParam,
        signal,
      }),
    initialPageParam: cursor,
    getNextPageParam: nextCursor,
  });
}

/**
 * One record and its ETag (sent back as `If-Match` on save; the hosted API sends none). The record
 * panel and triage share it, so a record saved in one place is current in the other.
 *
 * @example
 * const { data } = useSuspenseQuery(recordQueryOptions('apps', 'support-tickets', 'SUP-1'));
 */
export function recordQueryOptions(recordType: RecordType, alias: string, id: string) {
  return queryOptions({
    queryKey: recordKeys.detail(recordType, alias, id),
    queryFn: ({ signal }) => api.getRecord(recordType, alias, id, { signal }),
    staleTime: 0,
  });
}

/**
 * The number of records of one definition: a one-item search reads `total` cheaply. `undefined`
 * when the server gives no total; elements the server cannot list are not asked.
 *
 * @example
 * const { data: count } = useQuery(recordCountQueryOptions('apps', 'support-tickets'));
 */
export function recordCountQueryOptions(recordType: RecordType, alias: string) {
  return queryOptions({
    queryKey: recordKeys.count(recordType, alias),
    queryFn: async ({ signal }) =>
      (await api.searchRecords(recordType, alias, { first: 1, signal })).total ?? null,
    staleTime: 60_000,
  });
}
