import { z } from 'zod';

import type { RecordType } from '@wsc/api-client';

import { bffWrite } from './bff-write.ts';
import { definitionPath } from './definition-path.ts';

/**
 * `DELETE /bff/workspace/definitions/{recordType}/{alias}` (204): removes a stored definition.
 * The records themselves stay in the service; the console just no longer knows how to show them.
 *
 * @example
 * await removeDefinition('apps', 'support-tickets');
 */
export async function removeDefinition(recordType: RecordType, alias: string): Promise<void> {
  // Any 2xx is success: a body, if some proxy adds one, is not needed.
  await bffWrite(definitionPath(recordType, alias), { method: 'DELETE', schema: z.unknown() });
}
