// Saving records where the server offers no version check (the hosted API has no ETag and no
// If-Match): re-read first, refuse when what the user changed was changed meanwhile, and send the
// whole record so the save is right whether the server's PUT merges or replaces (the published
// contract does not say which). ADR 0011.
import type { Definition, RecordData, RecordInput, RecordReply, RecordType } from '@wsc/api-client';
import { ApiError, isApiError } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** One field someone else changed since the user's copy was read. */
export interface FieldDifference {
  field: string;
  /** The value the user's copy had. */
  seen: string;
  /** The value stored now. */
  now: string;
  /** The value the user wants; `null` for a field the user did not change. */
  mine: string | null;
}

/**
 * The save conflicts with a change made since the record was read: a 412 from a server with
 * ETags, or found by comparison on one without. Either way the record was read again, so
 * `differences` names the fields both sides changed (the user's value against theirs),
 * `alsoChanged` the other fields that moved meanwhile, and `latest` is the record as stored now.
 * ADR 0025.
 */
export class StaleRecordError extends ApiError {
  readonly differences: FieldDifference[];
  readonly alsoChanged: FieldDifference[];
  readonly latest: RecordData;

  constructor(differences: FieldDifference[], latest: RecordData, alsoChanged: FieldDifference[]) {
    const named = differences.length > 0 ? differences : alsoChanged;
    super({
      status: 412,
      code: 'stale_record',
      title: 'Changed by someone else',
      detail:
        named.length > 0
          ? `${named.map((d) => d.field).join(', ')} changed since you opened the record`
          : 'The record changed since you opened it',
    });
    this.differences = differences;
    this.alsoChanged = alsoChanged;
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
 * The writable fields the user did not change whose stored value moved since the user's copy
 * was read (their `mine` is `null`): shown beside the conflicts, so the user sees everything
 * that changed under them. Read-only fields (handle, audit stamps, which move on every save)
 * stay out.
 *
 * @example
 * otherChanges({ Title: 'A', Status: 'New' }, { Title: 'B', Status: 'New' }, { Status: 'Open' }, definition);
 * // [{ field: 'Title', seen: 'A', now: 'B', mine: null }]
 */
export function otherChanges(
  base: RecordData,
  latest: RecordData,
  changes: RecordData,
  definition: Pick<Definition, 'fields' | 'handleField'>,
): FieldDifference[] {
  const readOnly = readOnlyFields(definition);
  const names = new Set([...Object.keys(base), ...Object.keys(latest)]);
  return [...names]
    .filter((field) => !readOnly.has(field) && !(field in changes))
    .filter((field) => (base[field] ?? '') !== (latest[field] ?? ''))
    .map((field) => ({ field, seen: base[field] ?? '', now: latest[field] ?? '', mine: null }));
}

/** The fields a save never sends: read-only ones of the description, the handle and `id`. */
function readOnlyFields(definition: Pick<Definition, 'fields' | 'handleField'>): Set<string> {
  const readOnly = new Set(definition.fields.filter((f) => f.readOnly).map((f) => f.name));
  if (definition.handleField) readOnly.add(definition.handleField);
  readOnly.add('id');
  return readOnly;
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
  const readOnly = readOnlyFields(definition);
  const body: RecordInput = {};
  for (const [name, value] of Object.entries(latest)) if (!readOnly.has(name)) body[name] = value;
  return { ...body, ...changes };
}

/**
 * Saves `changes` to a record. With an ETag (our API) it is a conditional PUT of the changes only;
 * a stale one answers 412, and the record is then read again to say what moved. Without one, the
 * record is read again first: if a changed field moved meanwhile nothing is written; else the
 * whole record goes out with the changes on top. A stale save throws {@link StaleRecordError}
 * with the same field-by-field difference in both cases.
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
    try {
      return await api.updateRecord(recordType, alias, id, input.changes, {
        ifMatch: input.etag,
        signal,
        source,
      });
    } catch (error) {
      if (!isApiError(error) || error.status !== 412) throw error;
      throw await explainStale(input, error);
    }
  }
  const { record: latest, etag } = await api.getRecord(recordType, alias, id, { signal });
  const moved = differences(input.base, latest, input.changes);
  if (moved.length > 0) {
    throw new StaleRecordError(
      moved,
      latest,
      otherChanges(input.base, latest, input.changes, input.definition),
    );
  }
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

/**
 * A 412 told that the record changed, not how: read it again and compare with the user's copy.
 * If that read fails, the 412 itself is the answer (the dialog then names no field).
 */
async function explainStale(
  input: Parameters<typeof saveRecord>[0],
  stale: ApiError,
): Promise<ApiError> {
  const { recordType, alias, id, base, changes, definition, signal } = input;
  try {
    const { record: latest } = await api.getRecord(recordType, alias, id, { signal });
    return new StaleRecordError(
      differences(base, latest, changes),
      latest,
      otherChanges(base, latest, changes, definition),
    );
  } catch {
    return stale;
  }
}
