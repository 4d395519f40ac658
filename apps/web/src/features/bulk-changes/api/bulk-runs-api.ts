// The BFF's bulk runs (`/bff/bulk-runs`): each run's previous values, kept 7 days per user and
// region, so "Undo this run" works after a reload. The record writes themselves go to the API.
import { queryOptions } from '@tanstack/react-query';

import type { BulkRunRecord, Definition, RecordData, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { bff } from '@/lib/bff.ts';
import { saveRecord } from '@/lib/record-writes.ts';

import type { BulkItem } from '../lib/plan.ts';
import type { CurrentRecord, UndoItem } from '../lib/undo-plan.ts';

/**
 * The user's recent bulk runs of one definition, newest first (at most 20, 7 days).
 *
 * @example
 * const { data: runs } = useQuery(bulkRunsQueryOptions('apps', 'support-tickets'));
 */
export function bulkRunsQueryOptions(recordType: RecordType, alias: string) {
  return queryOptions({
    queryKey: ['bulk-runs', recordType, alias],
    queryFn: async ({ signal }) =>
      (await bff.bulkRuns.list({ recordType, alias }, { signal })).items,
    staleTime: 30_000,
  });
}

/**
 * Keeps a run's previous values in the BFF before the run writes (so even a run stopped halfway
 * can be undone): each record's values of the fields the run sets, as the preview read them.
 *
 * @example
 * const { id } = await storeBulkRun(tickets, { Status: 'Closed' }, plan.toChange);
 */
export function storeBulkRun(
  definition: Pick<Definition, 'recordType' | 'alias'>,
  changes: RecordData,
  items: readonly BulkItem[],
) {
  const names = Object.keys(changes);
  const records: BulkRunRecord[] = items.map((item) => ({
    id: item.id,
    before: Object.fromEntries(names.map((name) => [name, item.record?.[name] ?? ''])),
  }));
  return bff.bulkRuns.create({
    recordType: definition.recordType as RecordType,
    alias: definition.alias,
    changes,
    records,
  });
}

/**
 * A record as stored now, for the undo's check; a record that cannot be read is a reason.
 *
 * @example
 * const current = await readCurrent(tickets, 'SUP-1');
 */
export async function readCurrent(
  definition: Pick<Definition, 'recordType' | 'alias'>,
  id: string,
  signal?: AbortSignal,
): Promise<CurrentRecord | { error: string }> {
  try {
    const { record, etag } = await api.getRecord(
      definition.recordType as RecordType,
      definition.alias,
      id,
      { signal },
    );
    return { record, etag };
  } catch (error) {
    // A 429 is the scheduler's to retry; everything else makes this record unreadable.
    if (isApiError(error) && error.status === 429) throw error;
    if (isApiError(error) && error.status === 404) return { error: 'No longer exists' };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes one record's previous values back. With the ETag the check read (our API) it is a
 * conditional PUT: a change since then answers 412. Without one (hosted) the record is read once
 * more and a field that moved since the check fails it with StaleRecordError; both are reported
 * as a conflict, never overwritten.
 *
 * @example
 * await restoreRecord(tickets, { id: 'SUP-1', restore: { Status: 'New' }, latest, etag });
 */
export function restoreRecord(
  definition: Pick<Definition, 'recordType' | 'alias' | 'fields' | 'handleField'>,
  item: UndoItem,
  signal?: AbortSignal,
  /** `undo:<run id>` for the record history. */
  source?: string,
) {
  return saveRecord({
    recordType: definition.recordType as RecordType,
    alias: definition.alias,
    id: item.id,
    definition,
    base: item.latest,
    changes: item.restore,
    etag: item.etag,
    // Without an ETag the undo re-reads and compares here, as before issue 27's save protocol.
    conflictCheck: 'browser',
    signal,
    source,
  });
}
