import type { Definition, RecordData, RecordInput, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { api } from '@/lib/api.ts';
import { saveRecord, StaleRecordError } from '@/lib/record-writes.ts';

import type { BulkItem } from '../lib/plan.ts';
import type { FailureInfo } from '../lib/scheduler.ts';

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

/**
 * One record's bulk write. Our API (`etag` capability): a `PUT` of the given fields, which it
 * merges. The hosted API: the record is read again, a field being set that someone changed since
 * the preview fails this record (not the run), and the whole record goes out with the changes
 * (lib/record-writes.ts). On a retry (`item.record` absent) the fresh read is the baseline.
 *
 * @example
 * await bulkUpdate(tickets, { id: 'SUP-1', record }, { Status: 'Open' }, true);
 */
export async function bulkUpdate(
  definition: Pick<Definition, 'recordType' | 'alias' | 'fields' | 'handleField'>,
  item: BulkItem,
  fields: RecordInput,
  serverChecks: boolean,
  signal?: AbortSignal,
  /** `bulk-run:<id>` for the record history (`bulk-run` when the run could not be kept). */
  source?: string,
) {
  const recordType = definition.recordType as RecordType;
  if (serverChecks) {
    return api.updateRecord(recordType, definition.alias, item.id, fields, { signal, source });
  }
  const base =
    item.record ?? (await api.getRecord(recordType, definition.alias, item.id, { signal })).record;
  return saveRecord({
    recordType,
    alias: definition.alias,
    id: item.id,
    definition,
    base,
    changes: fields,
    etag: undefined,
    // The run compares each record itself, as before issue 27's save protocol (helper E's part).
    conflictCheck: 'browser',
    signal,
    source,
  });
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
