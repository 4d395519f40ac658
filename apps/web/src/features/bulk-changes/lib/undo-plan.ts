import type { BulkRunRecord, RecordData } from '@wsc/api-client';

/** A record as read at the undo's check: its values, and its ETag where the server sends one. */
export interface CurrentRecord {
  record: RecordData;
  etag?: string | undefined;
}

/** One record the undo writes: the previous values of the fields the run still holds. */
export interface UndoItem {
  id: string;
  /** Field -> the value before the run. Only fields still at what the run wrote. */
  restore: RecordData;
  /** The record as the check read it: the baseline of the stale check when the write happens. */
  latest: RecordData;
  etag?: string | undefined;
}

/** A record someone changed since the run: left as it is. */
export interface UndoConflict {
  id: string;
  fields: { field: string; wrote: string; now: string }[];
}

export interface UndoPlan {
  toRestore: UndoItem[];
  conflicts: UndoConflict[];
  /** Already at their previous values (restored before, or never written by the run). */
  unchanged: number;
  /** Records that could not be read (deleted since, or no access): handle and reason. */
  unreadable: { id: string; reason: string }[];
}

/**
 * What undoing a run would do, record by record. Per field the run set: still at the value the
 * run wrote means it can go back; at the value from before means there is nothing to do; anything
 * else means someone changed it since, and the whole record is a conflict (none of its fields is
 * written, so nobody's later edit is overwritten).
 *
 * @example
 * planUndo({ Status: 'Closed' }, [{ id: 'SUP-1', before: { Status: 'New' } }], new Map([['SUP-1', { record: { Status: 'Closed' } }]]));
 * // { toRestore: [{ id: 'SUP-1', restore: { Status: 'New' }, ... }], conflicts: [], unchanged: 0, unreadable: [] }
 */
export function planUndo(
  changes: RecordData,
  records: readonly BulkRunRecord[],
  current: ReadonlyMap<string, CurrentRecord | { error: string }>,
): UndoPlan {
  const plan: UndoPlan = { toRestore: [], conflicts: [], unchanged: 0, unreadable: [] };
  for (const { id, before } of records) {
    const read = current.get(id);
    if (!read || 'error' in read) {
      plan.unreadable.push({ id, reason: read?.error ?? 'Not checked' });
      continue;
    }
    const restore: RecordData = {};
    const moved: UndoConflict['fields'] = [];
    for (const [field, wrote] of Object.entries(changes)) {
      const now = read.record[field] ?? '';
      const was = before[field] ?? '';
      if (now === wrote) {
        if (wrote !== was) restore[field] = was;
      } else if (now !== was) {
        moved.push({ field, wrote, now });
      }
    }
    if (moved.length > 0) plan.conflicts.push({ id, fields: moved });
    else if (Object.keys(restore).length > 0) {
      plan.toRestore.push({ id, restore, latest: read.record, etag: read.etag });
    } else plan.unchanged++;
  }
  return plan;
}

/**
 * A conflict as one line of the per-record results.
 *
 * @example
 * conflictReason({ id: 'SUP-1', fields: [{ field: 'Status', wrote: 'Closed', now: 'Open' }] });
 * // 'Changed by someone else since the run (Status is now "Open"): left as it is'
 */
export function conflictReason(conflict: UndoConflict): string {
  const what = conflict.fields.map((f) => `${f.field} is now "${f.now}"`).join(', ');
  return `Changed by someone else since the run (${what}): left as it is`;
}
