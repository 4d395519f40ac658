import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import type { FilterFieldTypes } from '@/queries/request-filter.ts';
import { api } from '@/lib/api.ts';
import { recordQueryOptions, recordSearchQueryOptions } from '@/queries/records.ts';

/** A queue row: the record as listed, with its handle (rows without one are not in the queue). */
export type TriageRow = RecordData & { id: string };

export interface TriageQueue {
  recordType: RecordType;
  alias: string;
  filter?: string | undefined;
  sort?: string | undefined;
  /** False where the server cannot sort (the hosted API): the queue keeps the server's order. */
  serverSort: boolean;
  /** The definition's fields, to resolve relative dates in the filter. */
  fields: FilterFieldTypes;
}

/**
 * The queue: the filtered, sorted records, cursor-paged: the records list from its first page
 * ({@link recordSearchQueryOptions}), so entering triage from the list reuses its pages, and
 * writes that invalidate the list refresh the queue too. Without a server sort the queue is in the
 * server's order (sorting only the loaded part would make `j` skip records that arrive with later
 * pages).
 *
 * @example
 * const queue = useInfiniteQuery(triageQueueQueryOptions({ recordType: 'apps', alias: 'support-tickets', serverSort: true, fields }));
 */
export function triageQueueQueryOptions({
  recordType,
  alias,
  filter,
  sort,
  serverSort,
  fields,
}: TriageQueue) {
  return recordSearchQueryOptions(recordType, alias, { filter, sort }, serverSort, fields);
}

/** How long a fetched (or prefetched) record counts as fresh while triaging. */
const TRIAGE_RECORD_FRESH_MS = 15_000;

/**
 * One record with its ETag: the record panel's query ({@link recordQueryOptions}), so a record
 * saved in one place is current in the other. Fresh for a short while, so that a prefetched
 * neighbour shows at once on `j` instead of being fetched again.
 *
 * @example
 * queryClient.prefetchQuery(triageRecordQueryOptions('apps', 'support-tickets', 'SUP-2'));
 */
export function triageRecordQueryOptions(recordType: RecordType, alias: string, id: string) {
  return queryOptions({
    ...recordQueryOptions(recordType, alias, id),
    staleTime: TRIAGE_RECORD_FRESH_MS,
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
  return api.addComment(recordType, alias, id, text, { source: 'triage' });
}
