import type { Definition, RecordData } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

/** One record a bulk run writes: its handle, and its values as the preview saw them. */
export interface BulkItem {
  id: string;
  /** Absent on a retry: the write then starts from the record as stored at that moment. */
  record?: RecordData;
}

export interface BulkPlan {
  /** Records whose current values differ from the new ones: these get a request. */
  toChange: BulkItem[];
  /** Records that already have every new value: skipped. */
  unchanged: number;
  /** Records without a handle (hosted records of a type with no handle field): cannot be written. */
  unaddressable: number;
}

/**
 * Which records a bulk change would actually change. A record with every given field already at
 * its new value is skipped, so the preview count is exact and no request is wasted; a record with
 * no handle cannot be addressed and is counted apart.
 *
 * @example
 * planBulk([{ id: 'SUP-1', Status: 'Open' }, { id: 'SUP-2', Status: 'New' }], { Status: 'Open' }, tickets);
 * // { toChange: [{ id: 'SUP-2', record: {...} }], unchanged: 1, unaddressable: 0 }
 */
export function planBulk(
  records: readonly RecordData[],
  changes: RecordData,
  definition?: Pick<Definition, 'handleField'>,
): BulkPlan {
  const names = Object.keys(changes);
  const toChange: BulkItem[] = [];
  let unchanged = 0;
  let unaddressable = 0;
  for (const record of records) {
    const id = recordHandle(record, definition);
    if (!id) {
      unaddressable++;
      continue;
    }
    if (names.some((name) => (record[name] ?? '') !== changes[name])) toChange.push({ id, record });
    else unchanged++;
  }
  return { toChange, unchanged, unaddressable };
}
