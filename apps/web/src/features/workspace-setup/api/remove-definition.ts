import type { RecordType } from '@wsc/api-client';

import { bff } from '@/lib/bff.ts';

/**
 * `DELETE /bff/workspace/definitions/{recordType}/{alias}` (204): removes a stored definition.
 * The records themselves stay in the service; the console just no longer knows how to show them.
 *
 * @example
 * await removeDefinition('apps', 'support-tickets');
 */
export function removeDefinition(recordType: RecordType, alias: string): Promise<void> {
  // Any 2xx is success: a body, if some proxy adds one, is not needed.
  return bff.workspace.removeDefinition(recordType, alias);
}
