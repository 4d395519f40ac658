import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Definition } from '@wsc/api-client';

import { jsonResponse, renderWithRouter, ticketsDefinition } from '@/testing/render.tsx';

import { OverviewCharts } from './overview-charts.tsx';

const COUNTS: Record<string, number> = {
  'Status==New': 1,
  'Status==Open': 2,
  'Status==Pending': 3,
  'Status==Resolved': 4,
  'Status==Closed': 5,
  'Severity==Low': 6,
  'Severity==Medium': 0,
  'Severity==High': 7,
  'Severity==Critical': 0,
  'Severity==null': 2,
};

function page(total: number | undefined) {
  return {
    paging: {
      has_previous_page: false,
      start_cursor: null,
      end_cursor: null,
      has_next_page: false,
    },
    ...(total === undefined ? {} : { total }),
    items: [],
  };
}

/** Counts per filter; the whole definition (no filter) holds 15; anything else 0. */
function serve(totals: (filter: string | null) => number | undefined | 'forbidden') {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
    const total = totals(url.searchParams.get('filter'));
    if (total === 'forbidden') {
      return jsonResponse({ type: 'about:blank', title: 'Forbidden', status: 403 }, 403);
    }
    return jsonResponse(page(total));
  });
}

const tickets: Definition = ticketsDefinition;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OverviewCharts', () => {
  it('draws a linked bar per value, "Not set" only for records the values leave out, and the open count', async () => {
    serve((filter) => (filter === null ? 15 : (COUNTS[filter] ?? 0)));
    renderWithRouter(<OverviewCharts definitions={[tickets]} />);

    const status = await screen.findByRole('figure', { name: /Support Tickets:\s*By status/ });
    const closed = await within(status).findByRole('link', { name: /^Closed.*5\s*records$/ });
    const href = new URL(closed.getAttribute('href') ?? '', 'http://x');
    expect(href.pathname).toBe('/records/apps/support-tickets');
    expect(href.searchParams.get('filter')).toBe('Status==Closed');
    // Five values holding all 15 records: no "Not set"; New, Open and Pending are 6 open.
    expect(within(status).getAllByTestId('chart-bar')).toHaveLength(5);
    expect(within(status).queryByText('Not set')).toBeNull();
    expect(await within(status).findByTestId('open-count')).toHaveTextContent('6 open');

    // Severity: 13 of 15 have a value, so "Not set" is asked for and drawn.
    const severity = screen.getByRole('figure', { name: /Support Tickets:\s*By severity/ });
    expect(
      await within(severity).findByRole('link', { name: /^Not set\s*2\s*records$/ }),
    ).toHaveAttribute('data-filter', 'Severity==null');
    expect(within(severity).getAllByTestId('chart-bar')).toHaveLength(5);
    expect(within(severity).queryByTestId('open-count')).toBeNull();
  });

  it('says so when the service sends no totals', async () => {
    serve(() => undefined);
    renderWithRouter(<OverviewCharts definitions={[tickets]} />);
    await waitFor(() =>
      expect(
        screen.getAllByText('This service sends no totals, so there is nothing to count.'),
      ).toHaveLength(2),
    );
    // Nothing is left marked busy: the answer is in, it just has no numbers.
    expect(document.querySelectorAll('[aria-busy="true"]')).toHaveLength(0);
  });

  it('shows a lock instead of charts where the service refuses the records', async () => {
    serve(() => 'forbidden');
    renderWithRouter(<OverviewCharts definitions={[tickets]} />);
    expect(await screen.findByText('You do not have access to these records.')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('names the record types the service cannot list, and charts none of theirs', () => {
    renderWithRouter(
      <OverviewCharts
        definitions={[{ ...tickets, recordType: 'elements', name: 'Customers', listable: false }]}
      />,
    );
    return expect(
      screen.findByText(/No charts for Customers: this service cannot list its records/),
    ).resolves.toBeInTheDocument();
  });
});
