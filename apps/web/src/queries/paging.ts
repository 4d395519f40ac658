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

/** Where a page of a growing list starts, and how many items it asks for. */
export interface GrowingPageParam {
  after: string | undefined;
  first: number;
}

/**
 * Page sizes for a list people scroll through: the first page small, so the first screen comes
 * quickly, then each page twice the one before, up to `max`. Scrolling to row 1,000 of a list
 * that starts at 100 takes four requests (100, 200, 400, 500 with `max` 500) instead of ten.
 *
 * @example
 * infiniteQueryOptions({ ..., ...growingPages(100, 500, cursorFromUrl) });
 */
export function growingPages(first: number, max: number, after?: string) {
  return {
    initialPageParam: { after, first } as GrowingPageParam,
    getNextPageParam: (
      last: CursorPage,
      all: readonly CursorPage[],
    ): GrowingPageParam | undefined => {
      const next = nextCursor(last);
      return next === undefined
        ? undefined
        : { after: next, first: Math.min(first * 2 ** all.length, max) };
    },
  };
}

/**
 * Rows left below the screen when a scrolled list asks for its next page: about two screens, so
 * that at a reading or skimming pace the next page has arrived before the last row shows.
 */
export const PREFETCH_ROWS = 60;
