import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import { COUNT_CONCURRENCY } from '@/queries/record-counts.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { createdBetween, lastDays } from '../lib/overview-model.ts';
import {
  CREATED_ROWS_LIMIT,
  createdPerDayQueryOptions,
  OLDEST_OPEN_COUNT,
  oldestOpenQueryOptions,
  OPEN_ROWS_LIMIT,
} from './overview.ts';

function page(rows: RecordData[], total: number | undefined, more = false) {
  return {
    paging: {
      has_previous_page: false,
      start_cursor: null,
      end_cursor: more ? 'next' : null,
      has_next_page: more,
    },
    ...(total === undefined ? {} : { total }),
    items: rows.map((data, i) => ({ cursor: `c${i}`, data })),
  };
}

/** Answers record searches with `answer(params)`, recording each request's query. */
function serve(answer: (params: URLSearchParams) => unknown) {
  const seen: URLSearchParams[] = [];
  let inFlight = 0;
  let peak = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const params = new URL(String(input instanceof Request ? input.url : input), 'http://x')
      .searchParams;
    seen.push(params);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
    return jsonResponse(answer(params));
  });
  return { seen, peak: () => peak };
}

const now = new Date(2026, 10, 24, 15);
const days = lastDays(now);
const windowFilter = createdBetween('Created At', days[0]?.start ?? '', days.at(-1)?.end ?? '');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createdPerDayQueryOptions', () => {
  it(`reads up to ${CREATED_ROWS_LIMIT} records in one page and counts them by day`, async () => {
    const rows = [
      { 'Created At': days[0]?.start ?? '' },
      { 'Created At': days[29]?.start ?? '' },
      { 'Created At': days[29]?.start ?? '' },
    ];
    const server = serve((params) =>
      params.get('first') === '1' ? page(rows.slice(0, 1), 3, true) : page(rows, 3),
    );
    const result = await new QueryClient().fetchQuery(
      createdPerDayQueryOptions(ticketsDefinition, 'Created At', days),
    );
    expect(result).toMatchObject({ kind: 'counts', total: 3, method: 'rows' });
    if (result.kind !== 'counts') throw new Error('counts expected');
    expect(result.counts[0]).toBe(1);
    expect(result.counts[29]).toBe(2);
    expect(result.counts.reduce((a, b) => a + b)).toBe(3);
    expect(server.seen.map((p) => [p.get('filter'), p.get('first')])).toEqual([
      [windowFilter, '1'],
      [windowFilter, '3'],
    ]);
  });

  it('asks one count per day, four at a time, when the window holds more', async () => {
    const server = serve((params) => {
      const filter = params.get('filter');
      if (filter === windowFilter) return page([], CREATED_ROWS_LIMIT + 1, true);
      const index = days.findIndex(
        (day) => createdBetween('Created At', day.start, day.end) === filter,
      );
      return page([], index, index > 0);
    });
    const result = await new QueryClient().fetchQuery(
      createdPerDayQueryOptions(ticketsDefinition, 'Created At', days),
    );
    expect(result).toEqual({
      kind: 'counts',
      counts: days.map((_, index) => index),
      total: CREATED_ROWS_LIMIT + 1,
      method: 'day-counts',
    });
    expect(server.seen).toHaveLength(31);
    expect(server.seen.every((p) => p.get('first') === '1')).toBe(true);
    expect(server.peak()).toBeLessThanOrEqual(COUNT_CONCURRENCY);
  });

  it('says why there is no line when the server sends no total and the window is over a page', async () => {
    serve(() => page([{ 'Created At': days[3]?.start ?? '' }], undefined, true));
    const result = await new QueryClient().fetchQuery(
      createdPerDayQueryOptions(ticketsDefinition, 'Created At', days),
    );
    expect(result).toMatchObject({ kind: 'unavailable' });
  });

  it('counts the page when the server sends no total but it holds the whole window', async () => {
    serve(() => page([{ 'Created At': days[3]?.start ?? '' }], undefined, false));
    const result = await new QueryClient().fetchQuery(
      createdPerDayQueryOptions(ticketsDefinition, 'Created At', days),
    );
    expect(result).toMatchObject({ kind: 'counts', total: 1, method: 'rows' });
  });
});

describe('oldestOpenQueryOptions', () => {
  const open = 'Status=in=(New,Open)';

  it('lets the server sort by the created date where it can', async () => {
    const server = serve(() => page([{ id: 'SUP-1' }], 40, true));
    const result = await new QueryClient().fetchQuery(
      oldestOpenQueryOptions(ticketsDefinition, 'Created At', open, true),
    );
    expect(result).toEqual({ kind: 'records', records: [{ id: 'SUP-1' }], sortedHere: false });
    const [params] = server.seen;
    expect(params?.get('sort')).toBe('Created At');
    expect(params?.get('first')).toBe(String(OLDEST_OPEN_COUNT));
    expect(params?.get('filter')).toBe(open);
  });

  it(`sorts up to ${OPEN_ROWS_LIMIT} open records here where the server cannot`, async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({
      id: `SUP-${i}`,
      'Created At': new Date(Date.UTC(2026, 0, 10 - i)).toISOString(),
    }));
    const server = serve(() => page(rows, 8));
    const result = await new QueryClient().fetchQuery(
      oldestOpenQueryOptions(ticketsDefinition, 'Created At', open, false),
    );
    expect(result.kind === 'records' && result.records.map((r) => r['id'])).toEqual([
      'SUP-7',
      'SUP-6',
      'SUP-5',
      'SUP-4',
      'SUP-3',
    ]);
    expect(result).toMatchObject({ sortedHere: true });
    expect(server.seen[0]?.has('sort')).toBe(false);
    expect(server.seen[0]?.get('first')).toBe(String(OPEN_ROWS_LIMIT));
  });

  it('says why when there are more open records than it may sort here', async () => {
    serve(() => page([{ id: 'SUP-1' }], 5000, true));
    const result = await new QueryClient().fetchQuery(
      oldestOpenQueryOptions(ticketsDefinition, 'Created At', open, false),
    );
    expect(result).toMatchObject({ kind: 'unavailable' });
  });
});
