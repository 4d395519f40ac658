// The values before an update, as small as the history needs them. A captured write waits for its
// reply holding them; the history keeps at most 2,000 characters of a value (history.store.ts),
// so a long one is held as its first HELD_VALUE_CHARS characters (a copy, not a view of the
// record's string, which would keep the whole alive) and a digest to tell whether it changed.
import { createHash } from 'node:crypto';

import type { FieldChange } from '../../lib/record-changes.ts';

/** Characters of a value held whole; more than the history keeps of it. */
export const HELD_VALUE_CHARS = 2_048;

/** The values before of the fields a write sets, and the digests of those cut short. */
export type HeldValues = { values: Record<string, unknown>; digests: Map<string, string> };

const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const digestOf = (value: unknown) =>
  createHash('sha256')
    .update(textOf(value) ?? '')
    .digest('base64');

/**
 * The values of `fields` in `record`, long ones cut to {@link HELD_VALUE_CHARS} characters.
 *
 * @example
 * holdValues({ Status: 'New', Notes: 'x'.repeat(99_000) }, ['Status', 'Notes']).values.Notes.length; // 2048
 */
export function holdValues(record: Record<string, unknown>, fields: string[]): HeldValues {
  const values: Record<string, unknown> = {};
  const digests = new Map<string, string>();
  for (const field of fields) {
    const value = record[field];
    if (typeof value !== 'string' || value.length <= HELD_VALUE_CHARS) {
      values[field] = value;
      continue;
    }
    // Through bytes: a fresh string, not a slice that points into the whole value.
    values[field] = Buffer.from(value.slice(0, HELD_VALUE_CHARS), 'utf16le').toString('utf16le');
    digests.set(field, digestOf(value));
  }
  return { values, digests };
}

/**
 * The changes without those of a long value that did not change after all (its held part
 * differs from the value after only because it was cut).
 *
 * @example
 * const fields = withoutUnchanged(changedFields(plan, { body, reply, before: held.values }), held);
 */
export function withoutUnchanged(changes: FieldChange[], held: HeldValues | undefined) {
  if (!held || held.digests.size === 0) return changes;
  return changes.filter((change) => {
    const digest = held.digests.get(change.field);
    return digest === undefined || digest !== digestOf(change.after);
  });
}
