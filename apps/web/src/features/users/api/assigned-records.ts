import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

import { assignedFilter } from '../lib/assigned.ts';

/** How many open records the user page and the deactivation dialog list per definition. */
export const ASSIGNED_PREVIEW = 5;

export interface AssignedRecords {
  definition: Definition;
  /** Every record assigned to the person. */
  total: number;
  /** Those not in a closed state. */
  open: number;
  /** The first open ones, most recently updated first. */
  openRows: RecordData[];
}

/**
 * A person's records in one definition: how many are assigned to them, how many of those are
 * still open, and the first open ones. Two small searches (`first=1` reads a total cheaply).
 *
 * @example
 * const { data } = useQuery(assignedRecordsQueryOptions(tickets, 'ada@example.com'));
 */
export function assignedRecordsQueryOptions(definition: Definition, email: string) {
  const recordType = definition.recordType as RecordType;
  return queryOptions({
    queryKey: ['assigned-records', recordType, definition.alias, email],
    queryFn: async ({ signal }): Promise<AssignedRecords> => {
      const [all, open] = await Promise.all([
        api.searchRecords(recordType, definition.alias, {
          filter: assignedFilter(definition, email, false),
          first: 1,
          signal,
        }),
        api.searchRecords(recordType, definition.alias, {
          filter: assignedFilter(definition, email, true),
          sort: '-Updated At',
          first: ASSIGNED_PREVIEW,
          signal,
        }),
      ]);
      return {
        definition,
        total: all.total,
        open: open.total,
        openRows: open.items.map((item) => item.data),
      };
    },
    // Records change under other people's hands: read them afresh whenever the page opens.
    staleTime: 0,
  });
}
