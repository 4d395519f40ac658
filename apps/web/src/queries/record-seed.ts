// What a record's panel shows before the record itself is read: its row in a cached list. Apart
// from queries/records.ts, which is in the first load: only the record panel needs it.
import type { QueryClient } from '@tanstack/react-query';

import type { Definition, RecordReply, RecordType } from '@wsc/api-client';

import { rowInList } from '@/lib/optimistic/record-lists.ts';

import { recordKeys } from './records.ts';

/**
 * A record as a cached list of its definition holds it (the table's pages, the triage queue, a
 * picker), without an ETag: what its panel shows at once while the record itself is read
 * (`placeholderData`). `undefined` when no cached list holds it.
 *
 * @example
 * useQuery({ ...recordQueryOptions(type, alias, id), placeholderData: () => recordFromLists(queryClient, definition, id) });
 */
export function recordFromLists(
  queryClient: QueryClient,
  definition: Pick<Definition, 'recordType' | 'alias' | 'handleField'>,
  id: string,
): RecordReply | undefined {
  const lists = recordKeys.lists(definition.recordType as RecordType, definition.alias);
  for (const [, data] of queryClient.getQueriesData({ queryKey: lists })) {
    const row = rowInList(data, id, definition);
    if (row) return { record: row, etag: undefined };
  }
  return undefined;
}
