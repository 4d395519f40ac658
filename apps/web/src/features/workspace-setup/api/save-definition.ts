import type { Definition } from '@wsc/api-client';

import { bff } from '@/lib/bff.ts';

/**
 * `PUT /bff/workspace/definitions/{recordType}/{alias}`: adds or replaces a definition of the
 * BFF's store. Throws `ApiError` 422/400 with per-field `errors` (e.g. `fields.2.values`), or 409
 * when the operator's file already describes that key.
 *
 * @example
 * const entry = await saveDefinition(definition); // entry.source === 'store'
 */
export function saveDefinition(definition: Definition) {
  return bff.workspace.saveDefinition(definition);
}
