import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { recordKeys } from '@/queries/records.ts';

import { assignedFilter, updatedField } from '../lib/assigned.ts';

/** How many open records the user page and the deactivation dialog list per definition. */
export const ASSIGNED_PREVIEW = 5;

/** A count as far as it is known: exact from the server's `total`, else at least what was read. */
export interface Count {
  value: number;
  /** True when `value` is a lower bound (the server gave no total and has more). */
  atLeast: boolean;
}

export interface AssignedRecords {
  definition: Definition;
  /** Every record assigned to the person. */
  total: Count;
  /** Those not in a closed state. */
  open: Count;
  /** The first open ones, most recently updated first. */
  openRows: RecordData[];
}

function countOf(page: {
  total: number | undefined;
  items: unknown[];
  paging: { has_next_page: boolean };
}): Count {
  if (page.total !== undefined) return { value: page.total, atLeast: false };
  return { value: page.items.length, atLeast: page.paging.has_next_page };
}

/**
 * A person's records in one definition: how many are assigned to them, how many of those are
 * still open, and the first open ones. Two small searches (`first=1` reads a total cheaply).
 *
 * @example
 * const { data } = useQuery(assignedRecordsQueryOptions(tickets, 'ada@example.com'));
 */
export function assignedRecordsQueryOptions(
  definition: Definition,
  email: string,
  serverSort: boolean,
) {
  const recordType = definition.recordType as RecordType;
  const updated = updatedField(definition);
  return queryOptions({
    queryKey: recordKeys.assigned(recordType, definition.alias, email, serverSort),
    queryFn: async ({ signal }): Promise<AssignedRecords> => {
      const [all, open] = await Promise.all([
        api.searchRecords(recordType, definition.alias, {
          filter: assignedFilter(definition, email, false),
          first: 1,
          signal,
        }),
        api.searchRecords(recordType, definition.alias, {
          filter: assignedFilter(definition, email, true),
          sort: serverSort && updated ? `-${updated}` : undefined,
          first: ASSIGNED_PREVIEW,
          signal,
        }),
      ]);
      const openRows = open.items.map((item) => item.data);
      // Without a server sort, the few rows read are at least put in order among themselves.
      if (!serverSort && updated) {
        openRows.sort((a, b) => (b[updated] ?? '').localeCompare(a[updated] ?? ''));
      }
      return { definition, total: countOf(all), open: countOf(open), openRows };
    },
    // Records change under other people's hands: read them afresh whenever the page opens.
    staleTime: 0,
  });
}
