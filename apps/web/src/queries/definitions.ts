import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordType } from '@wsc/api-client';

import { bff } from '@/lib/bff.ts';

/**
 * `GET /bff/definitions`: the record definitions of the session's region, in the shape of our
 * API's `/v1/definitions` whichever the upstream is (the BFF reads them from our API, or from its
 * workspace description for the hosted service).
 *
 * @example
 * const { data } = useSuspenseQuery(definitionsQueryOptions());
 */
export function definitionsQueryOptions() {
  return queryOptions({
    queryKey: ['definitions'],
    queryFn: ({ signal }) => bff.definitions({ signal }),
    staleTime: 5 * 60_000,
  });
}

/**
 * Finds one definition by record type and alias.
 *
 * @example
 * findDefinition(list.items, 'apps', 'support-tickets')?.name; // 'Support Tickets'
 */
export function findDefinition(
  definitions: Definition[],
  recordType: string,
  alias: string,
): Definition | undefined {
  return definitions.find((d) => d.recordType === recordType && d.alias === alias);
}

/** Human labels for the record types, in navigation order. */
export const RECORD_TYPE_LABELS: Record<RecordType, string> = {
  apps: 'Apps',
  elements: 'Elements',
  tasks: 'Tasks',
  transactions: 'Transactions',
};
