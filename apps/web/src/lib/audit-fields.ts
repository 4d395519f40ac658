// Where a record says when and by whom it last changed (shared by triage and the record history).
import type { Definition, Field } from '@wsc/api-client';

/**
 * The read-only fields that say when and by whom a record last changed: `Updated At` and
 * `Updated By` in our API, the tenant's own names (`Updated on`, `Updated by`) in a hosted
 * workspace description; undefined where the definition has none.
 *
 * @example
 * lastUpdateFields(supportTickets); // { at: 'Updated At', by: 'Updated By' }
 */
export function lastUpdateFields(definition: Definition): { at?: string; by?: string } {
  const updated = (f: Field) => f.readOnly && /updated|modified|changed/i.test(f.name);
  return {
    at: definition.fields.find((f) => updated(f) && f.type === 'DATETIME')?.name,
    by: definition.fields.find((f) => updated(f) && f.type === 'USER_ID')?.name,
  };
}
