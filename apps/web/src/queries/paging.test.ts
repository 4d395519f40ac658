import { describe, expect, it } from 'vitest';

import { growingPages, nextCursor } from './paging.ts';

const page = (end: string | null, more: boolean) => ({
  paging: { has_next_page: more, end_cursor: end },
});

describe('growingPages', () => {
  it('starts small at the given cursor, then doubles each page up to the largest', () => {
    const pages = growingPages(100, 500, 'c0');
    expect(pages.initialPageParam).toEqual({ after: 'c0', first: 100 });
    const loaded: ReturnType<typeof page>[] = [];
    const sizes: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      const last = page(`c${i}`, true);
      loaded.push(last);
      sizes.push(pages.getNextPageParam(last, loaded)?.first ?? 0);
    }
    expect(sizes).toEqual([200, 400, 500, 500, 500, 500]);
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
