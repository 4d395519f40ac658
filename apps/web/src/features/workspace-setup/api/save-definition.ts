import type { Definition } from '@wsc/api-client';
import { WorkspaceEntrySchema } from '@wsc/api-client';

import { bffWrite } from './bff-write.ts';
import { definitionPath } from './definition-path.ts';

/**
 * `PUT /bff/workspace/definitions/{recordType}/{alias}`: adds or replaces a definition of the
 * BFF's store. Throws `ApiError` 422/400 with per-field `errors` (e.g. `fields.2.values`), or 409
 * when the operator's file already describes that key.
 *
 * @example
 * const entry = await saveDefinition(definition); // entry.source === 'store'
 */
export function saveDefinition(definition: Definition) {
  return bffWrite(definitionPath(definition.recordType, definition.alias), {
    method: 'PUT',
    schema: WorkspaceEntrySchema,
    body: definition,
  });
}
