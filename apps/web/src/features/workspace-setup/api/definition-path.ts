import type { RecordType } from '@wsc/api-client';

/**
 * The URL of one stored definition. The alias is encoded: the sample form forbids slashes and
 * spaces, but a definition read back from the store may predate that check.
 *
 * @example
 * definitionPath('apps', 'support-tickets'); // '/bff/workspace/definitions/apps/support-tickets'
 */
export function definitionPath(recordType: RecordType, alias: string): string {
  return `/bff/workspace/definitions/${recordType}/${encodeURIComponent(alias)}`;
}
