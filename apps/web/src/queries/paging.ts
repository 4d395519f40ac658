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
 * quickly, then three times that, then six, and so on doubling up to `max`. Scrolling to row
 * 1,000 of a list that starts at 100 takes three requests (100, 300, 600) instead of ten.
 *
 * @example
 * infiniteQueryOptions({ ..., ...growingPages(100, 600, cursorFromUrl) });
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
        : { after: next, first: Math.min(first * 3 * 2 ** (all.length - 1), max) };
    },
  };
}

/** Rows left below the screen at which any list asks for its next page (e.g. a short first page). */
export const PREFETCH_ROWS = 60;

/** The most rows a scrolled list keeps loaded below the screen. */
export const MAX_ROWS_AHEAD = 600;

/**
 * Whether a virtualized list should ask for its next page. Always when fewer than
 * {@link PREFETCH_ROWS} rows are left below the last one rendered; and once the person has
 * scrolled, as soon as fewer rows are left below than are loaded (at most
 * {@link MAX_ROWS_AHEAD}): a scrolling person keeps the next page in flight ahead of them, so the
 * requests follow one another instead of waiting for the end of the rows.
 *
 * @example
 * if (onNearEnd && wantsNextPage(rows.length, lastIndex, virtualizer.scrollOffset > 0)) onNearEnd();
 */
export function wantsNextPage(loaded: number, lastRendered: number, scrolled: boolean): boolean {
  if (loaded === 0) return false;
  const below = loaded - 1 - lastRendered;
  return below < PREFETCH_ROWS || (scrolled && below < Math.min(loaded, MAX_ROWS_AHEAD));
}
