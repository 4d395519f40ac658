// The console's hosted save (issue 27's save protocol): the values the user saw of the fields a
// PUT changes travel to the BFF in one header, so that the BFF, not the browser, checks that
// nobody changed them meanwhile (one browser -> BFF round trip, no re-read in the browser).
import type { Definition, RecordData } from './schemas/records.ts';

/** The header a record PUT carries its base values in. The BFF never forwards it upstream. */
export const BASE_VALUES_HEADER = 'X-Base-Values';

/**
 * The `X-Base-Values` value: base64url (no padding) of the UTF-8 JSON object `{field: value the
 * user saw}`.
 *
 * @example
 * encodeBaseValues({ Status: 'New' }); // 'eyJTdGF0dXMiOiJOZXcifQ'
 */
export function encodeBaseValues(values: RecordData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(values));
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are limited.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The body of a save without a version check: every field of the record as stored now but the
 * read-only ones (the definition's `readOnly` fields, its handle field, `id`), the changes on
 * top. The console sends it when it checks a save itself (bulk runs, undo); the BFF when it has
 * checked a save's `X-Base-Values`. The same function for both, so both send the same body.
 *
 * @example
 * wholeRecordBody({ 'Ticket ID': 'SUP-1', Title: 'A', Status: 'New' }, { Status: 'Open' }, hosted);
 * // { Title: 'A', Status: 'Open' }
 */
export function wholeRecordBody<V>(
  stored: Record<string, V>,
  changes: Record<string, V>,
  definition: Pick<Definition, 'fields' | 'handleField'> | undefined,
): Record<string, V> {
  const readOnly = new Set(['id']);
  for (const field of definition?.fields ?? []) if (field.readOnly) readOnly.add(field.name);
  if (definition?.handleField) readOnly.add(definition.handleField);
  const body = Object.fromEntries(Object.entries(stored).filter(([name]) => !readOnly.has(name)));
  return { ...body, ...changes };
}
