import { infiniteQueryOptions } from '@tanstack/react-query';

import type { RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** A record the comment calls are about. */
export interface RecordRef {
  recordType: RecordType;
  alias: string;
  id: string;
}

const PAGE = 100;

/**
 * A record's comment thread, oldest first, cursor-paged ("Show newer" follows `end_cursor`).
 *
 * @example
 * const query = useInfiniteQuery(commentsQueryOptions({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }));
 */
export function commentsQueryOptions(record: RecordRef) {
  return infiniteQueryOptions({
    queryKey: ['comments', record.recordType, record.alias, record.id],
    queryFn: ({ pageParam, signal }) =>
      api.listComments(record.recordType, record.alias, record.id, {
        first: PAGE,
        after: pageParam,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined,
    staleTime: 0,
  });
}

/**
 * Posts a comment (JSON, answered with the Comment).
 *
 * @example
 * await addComment(record, 'Called the customer; waiting for logs.');
 */
export function addComment(record: RecordRef, text: string) {
  return api.addComment(record.recordType, record.alias, record.id, text);
}
