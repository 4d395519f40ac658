// Records: wire shape, validation and writes. Shared by the records routes, the sub-resources and
// the seed.
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';

import type { FieldProblem } from '@wsc/api-client';
import type { StoredRecord } from '@wsc/api-client/strict';

import type { Db } from '../db/client.ts';
import type { RecordRow } from '../db/schema.ts';
import type { Profile } from '../env.ts';
import type { SystemColumn, WorkspaceDefinition } from '../workspace/definitions.ts';
import { isValidDate, normalizeDateTime } from '../lib/dates.ts';
import { unprocessable } from '../lib/errors.ts';
import { systemFields } from '../workspace/definitions.ts';

type RecordColumns = Pick<
  RecordRow,
  'id' | 'data' | 'created_at' | 'created_by' | 'updated_at' | 'updated_by'
>;

function columnText(row: RecordColumns, column: SystemColumn): string {
  const value = row[column];
  return typeof value === 'string' ? value : value.toISOString();
}

/**
 * A record row as a profile's flat record: the handle field, the fields in definition order, then
 * the audit fields. Extended: `id`, ..., `Created At` ...; hosted: the definition's hostedFields
 * names, no `id` (and no handle at all with `handle: null`).
 *
 * @example
 * RecordSchema.parse(recordBody(row, definition, 'hosted'));
 */
export function recordBody(
  row: RecordColumns,
  definition: WorkspaceDefinition,
  profile: Profile,
): Record<string, string> {
  const readOnly = systemFields(definition, profile);
  const record: Record<string, string> = {};
  for (const system of readOnly) {
    if (system.column === 'id') record[system.name] = row.id;
  }
  for (const field of definition.fields) {
    const value = row.data[field.name];
    if (typeof value === 'string') record[field.name] = value;
  }
  for (const system of readOnly) {
    if (system.column !== 'id') record[system.name] = columnText(row, system.column);
  }
  return record;
}

/**
 * A record row as the extended profile's flat record: `id`, the fields in definition order, then
 * system fields.
 *
 * @example
 * StoredRecordSchema.parse(toRecord(row, definition));
 */
export function toRecord(row: RecordColumns, definition: WorkspaceDefinition): StoredRecord {
  return recordBody(row, definition, 'extended') as StoredRecord;
}

/**
 * The strong ETag of a record version.
 *
 * @example
 * c.header('ETag', recordEtag(row));
 */
export function recordEtag(row: Pick<RecordRow, 'id' | 'version'>): string {
  return `"${row.id}.${row.version}"`;
}

/** A validated write: values to set and optional fields to clear. */
export type RecordChanges = { set: Record<string, string>; clear: string[] };

/**
 * Validates a create (`mode: 'create'`) or merge-update body against the definition. Collects every
 * problem and throws one 422; the profile's read-only fields in the body are ignored (clients send
 * back what they read).
 *
 * @example
 * const changes = await validateRecordInput(db, definition, body, 'create');
 */
export async function validateRecordInput(
  db: Db,
  definition: WorkspaceDefinition,
  body: unknown,
  mode: 'create' | 'update',
  profile: Profile = 'extended',
): Promise<RecordChanges> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw unprocessable([
      { field: '(body)', message: 'Expected a JSON object of field names to string values' },
    ]);
  }
  const problems: FieldProblem[] = [];
  const set: Record<string, string> = {};
  const clear: string[] = [];
  const userFields: Array<[string, string]> = [];
  const readOnly = new Set(systemFields(definition, profile).map((field) => field.name));
  for (const [name, raw] of Object.entries(body)) {
    if (readOnly.has(name)) continue;
    const field = definition.fieldsByName.get(name);
    if (!field) {
      problems.push({ field: name, message: `Unknown field for ${definition.alias}` });
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push({ field: name, message: 'Expected a string value' });
      continue;
    }
    const value = field.type === 'TEXT' ? raw : raw.trim();
    if (value === '') {
      if (field.required) problems.push({ field: name, message: 'Required' });
      else clear.push(name);
      continue;
    }
    const problem = checkValue(field.type, field.values, value);
    if (typeof problem === 'string') {
      problems.push({ field: name, message: problem });
      continue;
    }
    set[name] = problem.value;
    if (field.type === 'USER_ID') userFields.push([name, problem.value]);
  }
  if (mode === 'create') {
    for (const field of definition.fields) {
      if (
        field.required &&
        set[field.name] === undefined &&
        !problems.some((p) => p.field === field.name)
      ) {
        problems.push({ field: field.name, message: 'Required' });
      }
    }
  }
  if (userFields.length > 0) {
    const emails = [...new Set(userFields.map(([, email]) => email.toLowerCase()))];
    const users = await db
      .selectFrom('users')
      .select(['email', 'email_lower'])
      .where('email_lower', 'in', emails)
      .where('status', '=', 'ACTIVE')
      .execute();
    const canonical = new Map(users.map((user) => [user.email_lower, user.email]));
    for (const [name, email] of userFields) {
      const found = canonical.get(email.toLowerCase());
      if (found) set[name] = found;
      else problems.push({ field: name, message: `"${email}" is not the email of an active user` });
    }
  }
  if (problems.length > 0) throw unprocessable(problems);
  return { set, clear };
}

function checkValue(
  type: string,
  values: string[] | undefined,
  value: string,
): { value: string } | string {
  switch (type) {
    case 'TEXT':
      return value.length > 100_000 ? 'At most 100000 characters' : { value };
    case 'NUMBER':
      return /^-?(0|[1-9]\d{0,29})(\.\d{1,10})?$/.test(value)
        ? { value }
        : 'Expected a number such as 42 or -3.5';
    case 'DATE':
      return isValidDate(value) ? { value } : 'Expected a date YYYY-MM-DD';
    case 'DATETIME': {
      const strict = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value);
      const normalized = strict ? normalizeDateTime(value) : undefined;
      return normalized ? { value: normalized } : 'Expected a date-time YYYY-MM-DDTHH:MM:SS.SSSZ';
    }
    case 'PICKLIST':
      return values?.includes(value) ? { value } : `Not one of: ${(values ?? []).join(', ')}`;
    case 'MULTI_PICKLIST': {
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      const unknown = parts.filter((part) => !values?.includes(part));
      if (unknown.length > 0)
        return `Not among ${(values ?? []).join(', ')}: ${unknown.join(', ')}`;
      return { value: [...new Set(parts)].join(', ') };
    }
    case 'BOOLEAN': {
      const lowered = value.toLowerCase();
      return lowered === 'true' || lowered === 'false'
        ? { value: lowered }
        : 'Expected true or false';
    }
    case 'USER_ID':
      return value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value)
        ? { value }
        : 'Expected the email of an active user';
    default:
      return { value };
  }
}

/**
 * Reserves `count` consecutive numbers for a handle (atomic across concurrent writers).
 *
 * @example
 * const [first] = await reserveHandleNumbers(trx, 'SUP', 1); // 43
 */
export async function reserveHandleNumbers(
  db: Db,
  handle: string,
  count: number,
): Promise<number[]> {
  const row = await db
    .insertInto('handle_counters')
    .values({ handle, last_value: count })
    .onConflict((oc) =>
      oc.column('handle').doUpdateSet((eb) => ({
        last_value: sql`${eb.ref('handle_counters.last_value')} + ${count}`,
      })),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  const last = Number(row.last_value);
  return Array.from({ length: count }, (_, index) => last - count + 1 + index);
}

/**
 * Inserts validated records in one transaction, attributing them to `actorEmail`.
 *
 * @example
 * const [row] = await insertRecords(db, definition, [changes.set], principal.email);
 */
export async function insertRecords(
  db: Db,
  definition: WorkspaceDefinition,
  items: Array<Record<string, string>>,
  actorEmail: string,
  at: Date = new Date(),
): Promise<RecordRow[]> {
  if (items.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const numbers = await reserveHandleNumbers(trx, definition.handle, items.length);
    return trx
      .insertInto('records')
      .values(
        items.map((data, index) => ({
          id: `${definition.handle}-${numbers[index] ?? 0}`,
          record_type: definition.recordType,
          alias: definition.alias,
          data: JSON.stringify(data),
          created_at: at,
          created_by: actorEmail,
          updated_at: at,
          updated_by: actorEmail,
        })),
      )
      .returningAll()
      .execute();
  });
}

/**
 * Merges changes into a record atomically (`data || set - clear`), bumping its version. With
 * `expectedVersion`, only a record still at that version is changed; returns undefined otherwise.
 *
 * @example
 * const row = await updateRecord(db, definition, 'SUP-1', changes, email, 3);
 */
export async function updateRecord(
  db: Db,
  definition: WorkspaceDefinition,
  id: string,
  changes: RecordChanges,
  actorEmail: string,
  expectedVersion?: number,
): Promise<RecordRow | undefined> {
  let data: RawBuilder<unknown> = sql`(records.data || ${JSON.stringify(changes.set)}::jsonb)`;
  for (const name of changes.clear) data = sql`(${data} - ${name}::text)`;
  return db
    .updateTable('records')
    .set({
      data: data as unknown as string,
      version: sql`records.version + 1` as unknown as number,
      updated_at: new Date(),
      updated_by: actorEmail,
    })
    .where('id', '=', id)
    .where('alias', '=', definition.alias)
    .$if(expectedVersion !== undefined, (qb) => qb.where('version', '=', expectedVersion ?? 0))
    .returningAll()
    .executeTakeFirst();
}
