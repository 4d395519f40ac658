import type { ApiClient, Definition, RecordData, RecordType } from '@wsc/api-client';
import { ApiError, isApiError, recordHandle } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { api } from '@/lib/api.ts';
import {
  differences,
  otherChanges,
  StaleRecordError,
  wholeRecordBody,
} from '@/lib/record-writes.ts';

import type { BulkItem } from '../lib/plan.ts';
import type { FailureInfo } from '../lib/scheduler.ts';
import { handleFilter } from '../lib/batches.ts';

/** The API's largest page: fewest requests to collect every match. */
const PAGE = 1000;

/**
 * Every record matching a filter, page by page (`first=1000`), reporting progress.
 *
 * @example
 * const records = await fetchAllMatching('apps', 'support-tickets', 'Status==New', { onProgress });
 */
export async function fetchAllMatching(
  recordType: RecordType,
  alias: string,
  filter: string | undefined,
  options: { signal?: AbortSignal; onProgress?: (loaded: number, total: number) => void } = {},
): Promise<RecordData[]> {
  const records: RecordData[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.searchRecords(recordType, alias, {
      filter: filter || undefined,
      first: PAGE,
      after,
      signal: options.signal,
    });
    for (const item of page.items) records.push(item.data);
    // No total from the server (hosted): the count so far, plus more while there are pages.
    options.onProgress?.(
      records.length,
      page.total ?? records.length + (page.paging.has_next_page ? PAGE : 0),
    );
    if (!page.paging.has_next_page || !page.paging.end_cursor) return records;
    after = page.paging.end_cursor;
  }
}

/** What the bulk writes need of a definition. */
type WriteDefinition = Pick<Definition, 'recordType' | 'alias' | 'fields' | 'handleField'>;

/**
 * Reads a batch of records again in one published search (`<handle field>=in=(...)`,
 * `first` = the batch's size) and maps them by handle. The same read fills the BFF's copies of
 * these records, so their writes need no read of their own there (ADR 0030).
 *
 * @example
 * const latest = await readLatest(paced, tickets, [{ id: 'SUP-1' }, { id: 'SUP-2' }]);
 * latest.get('SUP-1'); // the record as stored now
 */
export async function readLatest(
  client: ApiClient,
  definition: Pick<Definition, 'recordType' | 'alias' | 'handleField'>,
  batch: readonly BulkItem[],
  signal?: AbortSignal,
): Promise<Map<string, RecordData>> {
  const page = await client.searchRecords(definition.recordType as RecordType, definition.alias, {
    filter: handleFilter(
      definition.handleField ?? 'id',
      batch.map((item) => item.id),
    ),
    first: batch.length,
    signal,
  });
  const latest = new Map<string, RecordData>();
  for (const { data } of page.items) {
    const id = recordHandle(data, definition);
    if (id) latest.set(id, data);
  }
  return latest;
}

/**
 * One record's bulk write, from its batch's fresh read. Our API (`etag` capability): a `PUT` of
 * the changed fields, which it merges. The hosted API: a field being set that someone changed
 * since the preview fails this record (not the run), else the whole record goes out with the
 * changes on top (lib/record-writes.ts), without X-Base-Values: the check was made here. On a
 * retry (`item.record` absent) the fresh read is the baseline.
 *
 * @example
 * await writeRecord(paced, tickets, { id: 'SUP-1', record }, latest, { Status: 'Open' }, { serverChecks: false });
 */
export async function writeRecord(
  client: ApiClient,
  definition: WriteDefinition,
  item: BulkItem,
  latest: RecordData | undefined,
  changes: RecordData,
  options: { serverChecks: boolean; signal?: AbortSignal | undefined; source?: string | undefined },
) {
  const recordType = definition.recordType as RecordType;
  const { signal, source } = options;
  if (options.serverChecks) {
    return client.updateRecord(recordType, definition.alias, item.id, changes, { signal, source });
  }
  if (!latest) {
    throw new ApiError({
      status: 404,
      code: 'not_found',
      title: 'Not found when read again',
      detail: `${item.id} was not among the records read again before the write`,
    });
  }
  const base = item.record ?? latest;
  const moved = differences(base, latest, changes);
  if (moved.length > 0) {
    throw new StaleRecordError(moved, latest, otherChanges(base, latest, changes, definition));
  }
  const body = wholeRecordBody(latest, changes, definition);
  return client.updateRecord(recordType, definition.alias, item.id, body, { signal, source });
}

/**
 * What the scheduler needs from a failure: status, Retry-After and a readable reason (422
 * problems are listed field by field).
 *
 * @example
 * toFailureInfo(new ApiError({ status: 429, code: 'rate_limited', retryAfter: 2 })); // { status: 429, retryAfter: 2, ... }
 */
export function toFailureInfo(error: unknown): FailureInfo {
  if (error instanceof StaleRecordError) {
    return {
      status: error.status,
      reason: `Changed by someone else since the preview: ${error.differences.map((d) => d.field).join(', ')}`,
    };
  }
  if (isApiError(error)) {
    const reason =
      error.errors.length > 0
        ? error.errors.map((p) => `${p.field}: ${p.message}`).join('; ')
        : describeError(error).title;
    return { status: error.status, retryAfter: error.retryAfter, reason };
  }
  return { reason: describeError(error).title };
}
