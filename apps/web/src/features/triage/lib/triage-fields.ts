import type { Definition, Field, RecordData } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import type { StaleRecordError } from '@/lib/record-writes.ts';
import { describeError } from '@/components/errors/error-message.ts';

export interface TriageFields {
  /** Set with 1..9. */
  status?: Field | undefined;
  /** Set with Shift+1..9. */
  severity?: Field | undefined;
  /** Set with `a`. */
  assignee?: Field | undefined;
}

const writable = (field: Field) => !field.readOnly;

/**
 * Which fields the single-key shortcuts set, found by name and type so any definition works:
 * status is the picklist named Status (else the first required picklist), severity the one named
 * Severity or Priority, assignee the user field named Assignee/Owner (else the first user field).
 *
 * @example
 * triageFields(supportTickets); // { status: Status, severity: Severity, assignee: Assignee }
 */
export function triageFields(definition: Definition): TriageFields {
  const fields = definition.fields.filter(writable);
  const picklists = fields.filter((f) => f.type === 'PICKLIST' && (f.values?.length ?? 0) > 0);
  const users = fields.filter((f) => f.type === 'USER_ID');
  const status =
    picklists.find((f) => /^(status|state)$/i.test(f.name)) ?? picklists.find((f) => f.required);
  const severity = picklists.find(
    (f) => f !== status && /^(severity|priority|urgency|impact)$/i.test(f.name),
  );
  const assignee = users.find((f) => /assign|owner/i.test(f.name)) ?? users[0];
  return { status, severity, assignee };
}

/**
 * The values of `fields` in `record` ('' when unset): what an undo writes back.
 *
 * @example
 * valuesBefore({ Status: 'New', Title: 'x' }, { Status: 'Open' }); // { Status: 'New' }
 */
export function valuesBefore(record: RecordData, fields: RecordData): RecordData {
  const out: RecordData = {};
  for (const name of Object.keys(fields)) out[name] = record[name] ?? '';
  return out;
}

/**
 * A short description of a change, for the status line and the undo message.
 *
 * @example
 * describeChange({ Status: 'Open' }); // 'Status → Open'
 */
export function describeChange(fields: RecordData): string {
  const parts = Object.entries(fields).map(([name, value]) => `${name} → ${value || '(empty)'}`);
  return parts.length <= 2 ? parts.join(', ') : `${parts.length} fields`;
}

/**
 * What a stale triage write says on the status line: the fields someone else changed, their value
 * now and the one the user chose (the triage form of the editor's conflict dialog, ADR 0025).
 *
 * @example
 * describeConflict({ differences: [{ field: 'Status', seen: 'New', now: 'Pending', mine: 'Open' }], alsoChanged: [] });
 * // 'Status is now Pending (you chose Open)'
 */
export function describeConflict(
  error: Pick<StaleRecordError, 'differences' | 'alsoChanged'>,
): string {
  const parts = [
    ...error.differences.map(
      (d) => `${d.field} is now ${d.now || '(empty)'} (you chose ${d.mine || '(empty)'})`,
    ),
    ...error.alsoChanged.map((d) => `${d.field} is now ${d.now || '(empty)'}`),
  ];
  if (parts.length === 0) return 'it changed';
  return parts.length <= 3 ? parts.join('; ') : `${parts.slice(0, 3).join('; ')}; and more`;
}

/**
 * What a refused triage write says on the status line: the record, the change, that it was
 * rolled back, and why (the service's own words where it gave some).
 *
 * @example
 * describeRefusal('SUP-1', { Status: 'Open' }, new ApiError({ status: 403, code: 'forbidden' }));
 * // "SUP-1: Status → Open not saved, rolled back. You don't have access."
 */
export function describeRefusal(id: string, changes: RecordData, error: unknown): string {
  const { title } = describeError(error);
  const problem = isApiError(error) ? error.errors[0] : undefined;
  const detail = problem
    ? `${problem.field}: ${problem.message}`
    : isApiError(error) && error.status !== 0 && error.status < 500
      ? error.detail
      : undefined;
  return `${id}: ${describeChange(changes)} not saved, rolled back. ${title}${detail ? ` (${detail})` : ''}.`;
}
