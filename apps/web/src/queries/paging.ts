/** A page of a cursor-paged list, as every list endpoint of the API answers it. */
interface CursorPage {
  paging: { has_next_page: boolean; end_cursor: string | null };
}

/**
 * The cursor of the page after `last`, or `undefined` at the end: `getNextPageParam` of every
 * cursor-paged infinite query.
 *
 * @example
 * infiniteQueryOptions({ ..., initialPageParam: undefined, getNextPageParam: nextCursor });
 */
export function nextCursor(last: CursorPage): string | undefined {
  return last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined;
}
