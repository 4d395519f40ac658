import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

import type { FilterFieldTypes } from './request-filter.ts';
import { growingPages } from './paging.ts';

/**
 * Records in the first page of a records list (the table, the triage queue); the pages after it
 * grow (300, then 600), up to {@link RECORDS_MAX_PAGE_SIZE} (`growingPages`).
 */
export const RECORDS_FIRST_PAGE_SIZE = 100;
/** The largest page a records list asks for (the published contract allows 1,000). */
export const RECORDS_MAX_PAGE_SIZE = 600;

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

/**
 * Whether a filter may hold a relative date (`{today}`, ADR 0017), so that sending it needs the
 * definition's fields and the resolver; a filter without `{` is sent as it is.
 */
export function holdsRelativeDate(filter: string | undefined): boolean {
  return filter?.includes('{') ?? false;
}

/**
 * {@link requestFilter}, loaded only for a filter with a relative date: the RSQL parser it needs
 * stays out of the first load (the Overview and the shell never parse a filter).
 */
async function resolveFilter(
  filter: string | undefined,
  fields: FilterFieldTypes,
): Promise<string | undefined> {
  if (!holdsRelativeDate(filter)) return filter || undefined;
  const { requestFilter } = await import('./request-filter.ts');
  return requestFilter(filter, fields);
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
    queryFn: async ({ pageParam, signal }) =>
      api.searchRecords(recordType, alias, {
        filter: await resolveFilter(filter, fields),
        sort: sort || undefined,
        first: pageParam.first,
        after: pageParam.after,
        signal,
      }),
    ...growingPages(RECORDS_FIRST_PAGE_SIZE, RECORDS_MAX_PAGE_SIZE, cursor),
  });
}

/**
 * How long a record read counts as fresh: long enough that a record read on hover (intent
 * preload) or by the route's loader is not read again when its panel mounts a moment later,
 * short enough that opening it later reads it again. Saves check for changes made meanwhile
 * anyway (If-Match, or the BFF's check of the values seen).
 */
export const RECORD_FRESH_MS = 10_000;

/**
 * One record and its ETag (sent back as `If-Match` on save; the hosted API sends none). The record
 * panel and triage share it, so a record saved in one place is current in the other.
 *
 * @example
 * const { data } = useQuery(recordQueryOptions('apps', 'support-tickets', 'SUP-1'));
 */
export function recordQueryOptions(recordType: RecordType, alias: string, id: string) {
  return queryOptions({
    queryKey: recordKeys.detail(recordType, alias, id),
    queryFn: ({ signal }) => api.getRecord(recordType, alias, id, { signal }),
    staleTime: RECORD_FRESH_MS,
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
