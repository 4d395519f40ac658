import type { RecordInput, RecordType, StoredRecord } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { api } from '@/lib/api.ts';

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
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.searchRecords(recordType, alias, {
      filter: filter || undefined,
      first: PAGE,
      after,
      signal: options.signal,
    });
    for (const item of page.items) records.push(item.data as StoredRecord);
    options.onProgress?.(records.length, page.total);
    if (!page.paging.has_next_page || !page.paging.end_cursor) return records;
    after = page.paging.end_cursor;
  }
}

/**
 * One record's bulk write: `PUT` merges only the given fields.
 *
 * @example
 * await bulkUpdate('apps', 'support-tickets', 'SUP-1', { Status: 'Open' });
 */
export function bulkUpdate(
  recordType: RecordType,
  alias: string,
  id: string,
  fields: RecordInput,
  signal?: AbortSignal,
) {
  return api.updateRecord(recordType, alias, id, fields, { signal });
}

/**
 * What the scheduler needs from a failure: status, Retry-After and a readable reason (422
 * problems are listed field by field).
 *
 * @example
 * toFailureInfo(new ApiError({ status: 429, code: 'rate_limited', retryAfter: 2 })); // { status: 429, retryAfter: 2, ... }
 */
export function toFailureInfo(error: unknown): FailureInfo {
  if (isApiError(error)) {
    const reason =
      error.errors.length > 0
        ? error.errors.map((p) => `${p.field}: ${p.message}`).join('; ')
        : describeError(error).title;
    return { status: error.status, retryAfter: error.retryAfter, reason };
  }
  return { reason: describeError(error).title };
}
