// Saving records. With an ETag (our API): a conditional PUT of the changes. Without one (the hosted
// API has no ETag and no If-Match): the changes and the values the user saw go to the BFF, which
// checks them against the record as stored and sends the whole record upstream, so the save is
// right whether the server's PUT merges or replaces (ADR 0011, issue 27's save protocol, ADR 0028).
import type { Definition, RecordData, RecordReply, RecordType } from '@wsc/api-client';
import { ApiError, isApiError, RecordSchema, wholeRecordBody } from '@wsc/api-client';

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
  /** The ETag of `latest` when it was read from a server that sends one. */
  readonly etag: string | undefined;

  constructor(
    differences: FieldDifference[],
    latest: RecordData,
    alsoChanged: FieldDifference[],
    etag?: string,
  ) {
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
    this.etag = etag;
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
 * Whether writing `changes` would change anything in `record` (an absent field reads as '').
 *
 * @example
 * changesAnything({ Status: 'Open' }, { Status: 'Open' }); // false
 */
export function changesAnything(record: RecordData, changes: RecordData): boolean {
  return Object.entries(changes).some(([name, value]) => (record[name] ?? '') !== value);
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

/** The body of a save without a version check: one function for the console and the BFF. */
export { wholeRecordBody };

/**
 * Where a save without an ETag is checked against changes made meanwhile. `server` (the save
 * protocol of issue 27): the PUT carries the changes only, with the values the user saw in
 * `X-Base-Values`, and the BFF compares them with the record as stored (one browser round trip);
 * `browser`: the record is read again here first, compared, and the whole record is PUT (the
 * bulk run's way until it moves to its own batched check).
 */
export type ConflictCheck = 'server' | 'browser';

export interface SaveRecordInput {
  recordType: RecordType;
  alias: string;
  id: string;
  definition: Pick<Definition, 'fields' | 'handleField'>;
  /** The record as the user saw it. */
  base: RecordData;
  changes: RecordData;
  etag: string | undefined;
  /** Without an ETag: who checks for changes made meanwhile (default `server`). */
  conflictCheck?: ConflictCheck;
  signal?: AbortSignal;
  /** Where in the console the save was made, for the record history (`editor`, `triage`, ...). */
  source?: string;
}

/**
 * Saves `changes` to a record, in one request. With an ETag (our API) it is a conditional PUT of
 * the changes only; a stale one answers 412, and the record is then read again to say what moved.
 * Without one, the PUT carries the changes and the values the user saw (`X-Base-Values`): the BFF
 * refuses with a 412 whose `latest` member is the record as stored, so nothing is read again
 * here. A stale save throws {@link StaleRecordError} naming the fields either way.
 * `conflictCheck: 'browser'` keeps the older way without an ETag (read, compare, PUT it whole).
 *
 * @example
 * const saved = await saveRecord({ recordType, alias, id, definition, base, changes, etag });
 */
export async function saveRecord(input: SaveRecordInput): Promise<RecordReply> {
  if (input.etag !== undefined) return saveIfMatch(input, input.etag);
  if (input.conflictCheck === 'browser') return saveCheckedHere(input);
  const { recordType, alias, id, signal, source, base, changes } = input;
  try {
    const saved = await api.updateRecord(recordType, alias, id, changes, {
      baseValues: baseValuesOf(base, changes),
      signal,
      source,
    });
    // A reply without a body (the hosted service may send none): what was seen plus the changes.
    return Object.keys(saved.record).length > 0
      ? saved
      : { record: { ...base, ...changes }, etag: saved.etag };
  } catch (error) {
    if (!isApiError(error) || error.status !== 412) throw error;
    throw await explainStale(input, error);
  }
}

/**
 * The values the user saw of the fields being changed ('' for a field the record did not have):
 * the `X-Base-Values` of a save without an ETag.
 *
 * @example
 * baseValuesOf({ Status: 'New', Title: 'A' }, { Status: 'Open', Owner: 'x@y.z' });
 * // { Status: 'New', Owner: '' }
 */
export function baseValuesOf(base: RecordData, changes: RecordData): RecordData {
  const seen: RecordData = {};
  for (const field of Object.keys(changes)) seen[field] = base[field] ?? '';
  return seen;
}

/** A conditional PUT of the changes; a 412 is explained field by field. */
async function saveIfMatch(input: SaveRecordInput, etag: string): Promise<RecordReply> {
  const { recordType, alias, id, signal, source } = input;
  try {
    return await api.updateRecord(recordType, alias, id, input.changes, {
      ifMatch: etag,
      signal,
      source,
    });
  } catch (error) {
    if (!isApiError(error) || error.status !== 412) throw error;
    throw await explainStale(input, error);
  }
}

/**
 * The save without an ETag checked in the browser: read the record again first; if a changed
 * field moved meanwhile nothing is written; else the whole record goes out with the changes on top.
 */
async function saveCheckedHere(input: SaveRecordInput): Promise<RecordReply> {
  const { recordType, alias, id, signal, source } = input;
  const { record: latest, etag } = await api.getRecord(recordType, alias, id, { signal });
  const moved = differences(input.base, latest, input.changes);
  if (moved.length > 0) {
    throw new StaleRecordError(
      moved,
      latest,
      otherChanges(input.base, latest, input.changes, input.definition),
      etag,
    );
  }
  // A server that does send ETags (ours, on a record read without one): use the check after all.
  if (etag !== undefined) return saveIfMatch(input, etag);
  const body = wholeRecordBody(latest, input.changes, input.definition);
  const saved = await api.updateRecord(recordType, alias, id, body, { signal, source });
  // The hosted reply may have no body: the record is what was stored plus what was sent.
  return Object.keys(saved.record).length > 0 ? saved : { record: { ...latest, ...body }, etag };
}

/**
 * The record as stored now that a 412 carries in its `latest` member (the BFF's check of a save
 * without an ETag), or `undefined` when it carries none (our API's 412 on a stale If-Match).
 */
function latestOf(stale: ApiError): RecordData | undefined {
  const parsed = RecordSchema.safeParse(stale.member('latest'));
  return parsed.success ? parsed.data : undefined;
}

/**
 * A 412 says that the record changed; its `latest` member, when present, says how. Without it
 * the record is read again and compared with the user's copy. If that read fails, the 412
 * itself is the answer (the dialog then names no field).
 */
async function explainStale(input: SaveRecordInput, stale: ApiError): Promise<ApiError> {
  const { recordType, alias, id, base, changes, definition, signal } = input;
  const explain = (latest: RecordData, etag: string | undefined) =>
    new StaleRecordError(
      differences(base, latest, changes),
      latest,
      otherChanges(base, latest, changes, definition),
      etag,
    );
  const carried = latestOf(stale);
  if (carried) return explain(carried, undefined);
  try {
    const { record: latest, etag } = await api.getRecord(recordType, alias, id, { signal });
    return explain(latest, etag);
  } catch {
    return stale;
  }
}
