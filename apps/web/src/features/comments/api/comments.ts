import { infiniteQueryOptions } from '@tanstack/react-query';

import type { Comment } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { api } from '@/lib/api.ts';
import { recordKeys } from '@/queries/records.ts';

const PAGE = 100;

/**
 * A record's comment thread, oldest first, cursor-paged ("Show newer" follows `end_cursor`).
 *
 * @example
 * const query = useInfiniteQuery(commentsQueryOptions({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }));
 */
export function commentsQueryOptions(record: RecordRef) {
  return infiniteQueryOptions({
    queryKey: recordKeys.comments(record),
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
 * The thread in time order. The published contract does not say in which order comments come, so
 * they are ordered by `createdAt` where every comment has one (stable: ties keep the server's
 * order), and left as sent otherwise.
 *
 * @example
 * oldestFirst(page.items)[0]?.createdAt; // the earliest
 */
export function oldestFirst(comments: Comment[]): Comment[] {
  if (comments.some((comment) => !comment.createdAt)) return comments;
  return comments
    .map((comment, index) => ({ comment, index, at: Date.parse(comment.createdAt ?? '') }))
    .sort((a, b) => (a.at === b.at || Number.isNaN(a.at - b.at) ? a.index - b.index : a.at - b.at))
    .map(({ comment }) => comment);
}

/**
 * Posts a comment: JSON to our API (answered with the Comment), `text/plain` to the hosted one
 * (answered with the new id); the thread is re-read either way.
 *
 * @example
 * await addComment(record, 'Called the customer; waiting for logs.');
 */
export function addComment(record: RecordRef, text: string) {
  return api.addComment(record.recordType, record.alias, record.id, text, { source: 'comments' });
}
