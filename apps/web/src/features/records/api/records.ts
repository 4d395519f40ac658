import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { RecordInput, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** How many records one page of the table loads. */
export const PAGE_SIZE = 100;

export interface RecordSearchParams {
  filter?: string | undefined;
  sort?: string | undefined;
  cursor?: string | undefined;
}

/**
 * Cursor-paged record search for the table: pages start at the URL's cursor and "Load more"
 * follows each page's `end_cursor`. `serverSort` false (the hosted API has no `sort`): the sort
 * stays out of the request and out of the cache key (the rows come in the server's order and the
 * view sorts them), so changing it does not reload.
 *
 * @example
 * const query = useSuspenseInfiniteQuery(recordSearchQueryOptions('apps', 'support-tickets', search, true));
 */
export function recordSearchQueryOptions(
  recordType: RecordType,
  alias: string,
  params: RecordSearchParams,
  serverSort: boolean,
) {
  const { filter, cursor } = params;
  const sort = serverSort ? params.sort : undefined;
  return infiniteQueryOptions({
    queryKey: ['records', recordType, alias, { filter, sort, cursor }],
    queryFn: ({ pageParam, signal }) =>
      api.searchRecords(recordType, alias, {
        filter: filter || undefined,
        sort: sort || undefined,
        first: PAGE_SIZE,
        after: pageParam,
        signal,
      }),
    initialPageParam: cursor,
    getNextPageParam: (last) =>
      last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined,
  });
}

/**
 * One record and its ETag (sent back as `If-Match` on save; the hosted API sends none).
 *
 * @example
 * const { data } = useSuspenseQuery(recordQueryOptions('apps', 'support-tickets', 'SUP-1'));
 */
export function recordQueryOptions(recordType: RecordType, alias: string, id: string) {
  return queryOptions({
    queryKey: ['record', recordType, alias, id],
    queryFn: ({ signal }) => api.getRecord(recordType, alias, id, { signal }),
    staleTime: 0,
  });
}

/**
 * `PUT` with `If-Match` where there is an ETag: a stale one answers 412.
 *
 * @example
 * await updateRecord({ recordType, alias, id, fields: { Status: 'Open' }, etag });
 */
export function updateRecord(input: {
  recordType: RecordType;
  alias: string;
  id: string;
  fields: RecordInput;
  etag: string | undefined;
}) {
  return api.updateRecord(input.recordType, input.alias, input.id, input.fields, {
    ifMatch: input.etag,
  });
}

/**
 * `POST` a new record -> the record as stored (with its handle in our API; the hosted reply may
 * have none, or no body at all).
 *
 * @example
 * const record = await createRecord({ recordType, alias, fields: { Title: 'Printer on fire' } });
 */
export function createRecord(input: {
  recordType: RecordType;
  alias: string;
  fields: RecordInput;
}) {
  return api.createRecord(input.recordType, input.alias, input.fields);
}
