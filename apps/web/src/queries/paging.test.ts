import { describe, expect, it } from 'vitest';

import {
  growingPages,
  MAX_ROWS_AHEAD,
  nextCursor,
  PREFETCH_ROWS,
  wantsNextPage,
} from './paging.ts';

const page = (end: string | null, more: boolean) => ({
  paging: { has_next_page: more, end_cursor: end },
});

describe('growingPages', () => {
  it('starts small at the given cursor, then 3x, then doubles each page up to the largest', () => {
    const pages = growingPages(100, 600, 'c0');
    expect(pages.initialPageParam).toEqual({ after: 'c0', first: 100 });
    const loaded: ReturnType<typeof page>[] = [];
    const sizes: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      const last = page(`c${i}`, true);
      loaded.push(last);
      sizes.push(pages.getNextPageParam(last, loaded)?.first ?? 0);
    }
    expect(sizes).toEqual([300, 600, 600, 600, 600, 600]);
    expect(pages.getNextPageParam(page('c9', true), [page('c9', true)])?.after).toBe('c9');
  });

  it('stops where the list ends', () => {
    const pages = growingPages(100, 500);
    expect(pages.initialPageParam).toEqual({ after: undefined, first: 100 });
    expect(pages.getNextPageParam(page('c1', false), [page('c1', false)])).toBeUndefined();
    expect(pages.getNextPageParam(page(null, true), [page(null, true)])).toBeUndefined();
    expect(nextCursor(page(null, true))).toBeUndefined();
  });
});

describe('wantsNextPage', () => {
  it('asks near the end of the rows, scrolled or not (a short first page fills no screen)', () => {
    expect(wantsNextPage(0, 0, false)).toBe(false);
    expect(wantsNextPage(30, 29, false)).toBe(true);
    expect(wantsNextPage(100, 99 - PREFETCH_ROWS, false)).toBe(false);
    expect(wantsNextPage(100, 100 - PREFETCH_ROWS, false)).toBe(true);
  });

  it('keeps a scrolling person ahead: fewer rows left below than loaded, at most MAX_ROWS_AHEAD', () => {
    // First screen of 100, not scrolled: waits. Scrolled a little: asks at once.
    expect(wantsNextPage(100, 35, false)).toBe(false);
    expect(wantsNextPage(100, 35, true)).toBe(true);
    expect(wantsNextPage(400, 150, true)).toBe(true);
    expect(wantsNextPage(1000, 1000 - MAX_ROWS_AHEAD - 2, true)).toBe(false);
    expect(wantsNextPage(1000, 1000 - MAX_ROWS_AHEAD, true)).toBe(true);
  });
});
