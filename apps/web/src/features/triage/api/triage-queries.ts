import type { InfiniteData } from '@tanstack/react-query';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { Definition, RecordData, RecordPagedList, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** Records per page of the queue; the same as the records table, so both share cached pages. */
export const TRIAGE_PAGE_SIZE = 100;

/** A queue row: the record as listed, with its handle (rows without one are not in the queue). */
export type TriageRow = RecordData & { id: string };

export interface TriageQueue {
  recordType: RecordType;
  alias: string;
  filter?: string | undefined;
  sort?: string | undefined;
  /** False where the server cannot sort (the hosted API): the queue keeps the server's order. */
  serverSort: boolean;
}

/**
 * The queue: the filtered, sorted records, cursor-paged. The key is the records list's key for a
 * first page (`['records', type, alias, {filter, sort, cursor}]`), so entering triage from the
 * list reuses its pages, and writes that invalidate the list refresh the queue too. Without a
 * server sort the queue is in the server's order (sorting only the loaded part would make `j`
 * skip records that arrive with later pages).
 *
 * @example
 * const queue = useInfiniteQuery(triageQueueQueryOptions({ recordType: 'apps', alias: 'support-tickets', serverSort: true }));
 */
export function triageQueueQueryOptions({
  recordType,
  alias,
  filter,
  sort: requested,
  serverSort,
}: TriageQueue) {
  const sort = serverSort ? requested : undefined;
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
 * The queue rows of loaded records: each with its handle; records without one cannot be opened,
 * so they are counted (`skipped`) rather than listed.
 *
 * @example
 * const { rows, skipped } = queueRows(records, definition);
 */
export function queueRows(
  records: RecordData[],
  definition: Pick<Definition, 'handleField'>,
): { rows: TriageRow[]; skipped: number } {
  const rows: TriageRow[] = [];
  for (const record of records) {
    const id = recordHandle(record, definition);
    if (id) rows.push({ ...record, id });
  }
  return { rows, skipped: records.length - rows.length };
}

/**
 * `POST .../comment` (JSON to our API, text to the hosted one); the thread is re-read after.
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
  id: string,
  record: RecordData,
  definition: Pick<Definition, 'handleField'>,
): InfiniteData<RecordPagedList, P> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) =>
        recordHandle(item.data, definition) === id
          ? { ...item, data: { ...item.data, ...record } }
          : item,
      ),
    })),
  };
}
