// Saving records where the server offers no version check (the hosted API has no ETag and no
// If-Match): re-read first, refuse when what the user changed was changed meanwhile, and send the
// whole record so the save is right whether the server's PUT merges or replaces (the published
// contract does not say which). ADR 0011.
import type { Definition, RecordData, RecordInput, RecordReply, RecordType } from '@wsc/api-client';
import { ApiError } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** One field the user changed that someone else changed too, since the user's copy was read. */
export interface FieldDifference {
  field: string;
  /** The value the user's copy had. */
  seen: string;
  /** The value stored now. */
  now: string;
  /** The value the user wants. */
  mine: string;
}

/**
 * The save conflicts with a change made since the record was read: what 412 means with an ETag,
 * found here by comparison. `latest` is the record as stored now.
 */
export class StaleRecordError extends ApiError {
  readonly differences: FieldDifference[];
  readonly latest: RecordData;

  constructor(differences: FieldDifference[], latest: RecordData) {
    super({
      status: 412,
      code: 'stale_record',
      title: 'Changed by someone else',
      detail: `${differences.map((d) => d.field).join(', ')} changed since you opened the record`,
    });
    this.differences = differences;
    this.latest = latest;
  }
}

/**
 * The fields of `changes` whose stored value moved away from what the user's copy (`base`) had.
 * A field someone else set to the very value the user wants is not a conflict.
 *
 * @example
 * differences({ Status: 'New' }, { Status: 'Open' }, { Status: 'Closed' });
 * // [{ field: 'Status', seen: 'New', now: 'Open', mine: 'Closed' }]
 */
export function differences(
  base: RecordData,
  latest: RecordData,
  changes: RecordData,
): FieldDifference[] {
  return Object.entries(changes)
    .filter(([field, mine]) => {
      const now = latest[field] ?? '';
      return (base[field] ?? '') !== now && now !== mine;
    })
    .map(([field, mine]) => ({
      field,
      seen: base[field] ?? '',
      now: latest[field] ?? '',
      mine,
    }));
}

/**
 * The body of a save without a version check: every writable value of the record as stored now,
 * with the user's changes over them. Read-only fields (the handle, audit fields) stay out.
 *
 * @example
 * wholeRecordBody({ 'Ticket ID': 'SUP-1', Title: 'A', Status: 'New' }, { Status: 'Open' }, hosted);
 * // { Title: 'A', Status: 'Open' }
 */
export function wholeRecordBody(
  latest: RecordData,
  changes: RecordData,
  definition: Pick<Definition, 'fields' | 'handleField'>,
): RecordInput {
  const readOnly = new Set(definition.fields.filter((f) => f.readOnly).map((f) => f.name));
  if (definition.handleField) readOnly.add(definition.handleField);
  readOnly.add('id');
  const body: RecordInput = {};
  for (const [name, value] of Object.entries(latest)) if (!readOnly.has(name)) body[name] = value;
  return { ...body, ...changes };
}

/**
 * Saves `changes` to a record. With an ETag (our API) it is a conditional PUT of the changes only
 * (a stale one answers 412). Without one, the record is read again first: if a changed field
 * moved meanwhile this throws {@link StaleRecordError} and nothing is written; else the whole
 * record goes out with the changes on top.
 *
 * @example
 * const saved = await saveRecord({ recordType, alias, id, definition, base, changes, etag });
 */
export async function saveRecord(input: {
  recordType: RecordType;
  alias: string;
  id: string;
  definition: Pick<Definition, 'fields' | 'handleField'>;
  /** The record as the user saw it. */
  base: RecordData;
  changes: RecordData;
  etag: string | undefined;
  signal?: AbortSignal;
  /** Where in the console the save was made, for the record history (`editor`, `triage`, ...). */
  source?: string;
}): Promise<RecordReply> {
  const { recordType, alias, id, signal, source } = input;
  if (input.etag !== undefined) {
    return api.updateRecord(recordType, alias, id, input.changes, {
      ifMatch: input.etag,
      signal,
      source,
    });
  }
  const { record: latest, etag } = await api.getRecord(recordType, alias, id, { signal });
  const moved = differences(input.base, latest, input.changes);
  if (moved.length > 0) throw new StaleRecordError(moved, latest);
  // A server that does send ETags (ours, on a record read without one): use the check after all.
  if (etag !== undefined) {
    return api.updateRecord(recordType, alias, id, input.changes, {
      ifMatch: etag,
      signal,
      source,
    });
  }
  const body = wholeRecordBody(latest, input.changes, input.definition);
  const saved = await api.updateRecord(recordType, alias, id, body, { signal, source });
  // The hosted reply may have no body: the record is what was stored plus what was sent.
  return Object.keys(saved.record).length > 0 ? saved : { record: { ...latest, ...body }, etag };
}
