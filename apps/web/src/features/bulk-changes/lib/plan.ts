import type { RecordData } from '@wsc/api-client';

export interface BulkPlan {
  /** Records whose current values differ from the new ones: these get a request. */
  toChange: { id: string }[];
  /** Records that already have every new value: skipped. */
  unchanged: number;
}

/**
 * Which records a bulk change would actually change. A record with every given field already at
 * its new value is skipped, so the preview count is exact and no request is wasted.
 *
 * @example
 * planBulk([{ id: 'SUP-1', Status: 'Open' }, { id: 'SUP-2', Status: 'New' }], { Status: 'Open' });
 * // { toChange: [{ id: 'SUP-2' }], unchanged: 1 }
 */
export function planBulk(records: readonly RecordData[], changes: RecordData): BulkPlan {
  const names = Object.keys(changes);
  const toChange: { id: string }[] = [];
  let unchanged = 0;
  for (const record of records) {
    const id = record.id;
    if (!id) continue;
    if (names.some((name) => (record[name] ?? '') !== changes[name])) toChange.push({ id });
    else unchanged++;
  }
  return { toChange, unchanged };
}
