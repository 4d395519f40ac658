import type { Field, RecordData } from '@wsc/api-client';

/** One "set this field to this value" line of the bulk change form. */
export interface BulkRow {
  /** Stable across edits, for React and the form's ids. */
  key: number;
  field: string;
  value: string;
}

/**
 * The form's first line: the first picklist (the usual bulk change: status, severity), else the
 * first editable field; no line when nothing is editable.
 *
 * @example
 * firstRows(editable); // [{ key: 0, field: 'Status', value: '' }]
 */
export function firstRows(editable: Field[]): BulkRow[] {
  const first = editable.find((f) => f.type === 'PICKLIST') ?? editable[0];
  return first ? [{ key: 0, field: first.name, value: '' }] : [];
}

/**
 * The lines plus one for the first field not yet listed (the lines as they are when every field
 * is).
 *
 * @example
 * withNextField(rows, editable); // [...rows, { key: 1, field: 'Severity', value: '' }]
 */
export function withNextField(rows: BulkRow[], editable: Field[]): BulkRow[] {
  const free = editable.find((f) => !rows.some((r) => r.field === f.name));
  if (!free) return rows;
  return [
    ...rows,
    { key: Math.max(0, ...rows.map((r) => r.key)) + 1, field: free.name, value: '' },
  ];
}

/**
 * The changes the lines ask for, or the problem to show instead: a required field left empty, or
 * no field at all. Lines naming a field that is not editable are left out.
 *
 * @example
 * changesFromRows([{ key: 0, field: 'Status', value: 'Open' }], editable); // { changes: { Status: 'Open' } }
 */
export function changesFromRows(
  rows: BulkRow[],
  editable: Field[],
): { changes: RecordData } | { problem: string } {
  const byName = new Map(editable.map((f) => [f.name, f]));
  const changes: RecordData = {};
  for (const row of rows) {
    const field = byName.get(row.field);
    if (!field) continue;
    if (field.required && row.value.trim() === '') {
      return { problem: `${field.name} is required: choose a value.` };
    }
    changes[field.name] = row.value;
  }
  if (Object.keys(changes).length === 0) return { problem: 'Choose at least one field to set.' };
  return { changes };
}
