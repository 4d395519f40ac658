import type { InfiniteData } from '@tanstack/react-query';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { RecordInput, RecordPagedList, RecordType, StoredRecord } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** Records per page of the queue; the same as the records table, so both share cached pages. */
export const TRIAGE_PAGE_SIZE = 100;

export interface TriageQueue {
  recordType: RecordType;
  alias: string;
  filter?: string | undefined;
  sort?: string | undefined;
}

/**
 * The queue: the filtered, sorted records, cursor-paged. The key is the records list's key for a
 * first page (`['records', type, alias, {filter, sort, cursor}]`), so entering triage from the
 * list reuses its pages, and writes that invalidate the list refresh the queue too.
 *
 * @example
 * const queue = useInfiniteQuery(triageQueueQueryOptions({ recordType: 'apps', alias: 'support-tickets' }));
 */
export function triageQueueQueryOptions({ recordType, alias, filter, sort }: TriageQueue) {
  return infiniteQueryOptions({
    queryKey: ['records', recordType, alias, { filter, sort, cursor: undefined }],
    queryFn: ({ pageParam, signal }) =>
      api.searchRecords(recordType, alias, {
        filter: filter || undefined,
        sort: sort || undefined,
        first: TRIAGE_PAGE_SIZE,
        after: pageParam,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined,
  });
}

/** How long a fetched (or prefetched) record counts as fresh while triaging. */
const RECORD_FRESH_MS = 15_000;

/**
 * One record with its ETag. Same key as the record panel (`['record', type, alias, id]`), so a
 * record saved in one place is current in the other. Fresh for a short while, so that a
 * prefetched neighbour shows at once on `j` instead of being fetched again.
 *
 * @example
 * queryClient.prefetchQuery(triageRecordQueryOptions('apps', 'support-tickets', 'SUP-2'));
 */
export function triageRecordQueryOptions(recordType: RecordType, alias: string, id: string) {
  return queryOptions({
    queryKey: ['record', recordType, alias, id],
    queryFn: ({ signal }) => api.getRecord(recordType, alias, id, { signal }),
    staleTime: RECORD_FRESH_MS,
  });
}

/**
 * `PUT` the given fields with `If-Match`: a stale ETag answers 412.
 *
 * @example
 * const saved = await saveTriageFields('apps', 'support-tickets', 'SUP-1', { Status: 'Open' }, etag);
 */
export function saveTriageFields(
  recordType: RecordType,
  alias: string,
  id: string,
  fields: RecordInput,
  etag: string | undefined,
) {
  return api.updateRecord(recordType, alias, id, fields, { ifMatch: etag });
}

/**
 * `POST .../comment` (JSON) -> the new Comment.
 *
 * @example
 * await postTriageComment('apps', 'support-tickets', 'SUP-1', 'Called the customer');
 */
export function postTriageComment(recordType: RecordType, alias: string, id: string, text: string) {
  return api.addComment(recordType, alias, id, text);
}

/**
 * Replaces one record inside cached queue pages (the queue keeps its order while triaging: a
 * record that no longer matches the filter stays until the queue is reloaded).
 *
 * @example
 * queryClient.setQueryData(queueKey, (data) => replaceInPages(data, saved));
 */
export function replaceInPages<P>(
  data: InfiniteData<RecordPagedList, P> | undefined,
  record: StoredRecord,
): InfiniteData<RecordPagedList, P> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) =>
        item.data.id === record.id ? { ...item, data: { ...item.data, ...record } } : item,
      ),
    })),
  };
}
