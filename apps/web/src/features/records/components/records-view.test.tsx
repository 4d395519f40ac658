import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordData } from '@wsc/api-client';
import { capabilitiesFor } from '@wsc/api-client';

import { CapabilitiesContext } from '@/lib/capabilities.ts';
import { recordQueryOptions } from '@/queries/records.ts';
import { sizeScrollContainer } from '@/testing/layout.ts';
import {
  hostedTicketsDefinition,
  jsonResponse,
  renderWithQuery,
  ticketsDefinition,
} from '@/testing/render.tsx';

import { RecordsTable, ROW_HEIGHT } from './records-table.tsx';
import { RecordsView } from './records-view.tsx';

function page(rows: RecordData[], total: number, next: string | null) {
  return {
    paging: {
      has_previous_page: false,
      start_cursor: null,
      end_cursor: next,
      has_next_page: next !== null,
    },
    total,
    items: rows.map((data, i) => ({ cursor: `c${i}`, data })),
  };
}

function ticket(n: number): RecordData {
  return {
    id: `SUP-${n}`,
    Title: `Ticket ${n}`,
    Status: 'Open',
    Priority: String(n % 5),
    'Created At': '2024-01-01T00:00:00.000Z',
    'Created By': 'a@x.io',
    'Updated At': '2024-07-01T12:30:00.000Z',
    'Updated By': 'a@x.io',
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

sizeScrollContainer('records-scroll');

const noop = () => undefined;

describe('RecordsView', () => {
  it('shows a 5xx plainly with a retry that recovers', async () => {
    let calls = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      calls += 1;
      if (calls === 1)
        return jsonResponse(
          { type: 'about:blank', title: 'Service Unavailable', status: 503 },
          503,
        );
      return jsonResponse(page([ticket(1), ticket(2)], 2, null));
    });
    const { user } = renderWithQuery(
      <RecordsView
        definition={ticketsDefinition}
        search={{}}
        onSearchChange={noop}
        onOpen={noop}
        onCreate={noop}
        recordHref={(id) => `/x/${id}`}
      />,
    );
    // The query client retries 5xx once before showing the error.
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The service had a problem');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'SUP-1' })).toBeInTheDocument();
    expect(screen.getByTestId('records-status')).toHaveTextContent('2 loaded of 2 records');
  });

  it('sends filter, sort and cursor from the URL state to the API', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(jsonResponse(page([], 0, null)));
    renderWithQuery(
      <RecordsView
        definition={ticketsDefinition}
        search={{ filter: 'Status==Open', sort: '-Priority', cursor: 'abc' }}
        onSearchChange={noop}
        onOpen={noop}
        onCreate={noop}
        recordHref={(id) => `/x/${id}`}
      />,
    );
    expect(await screen.findByText('No records match this filter')).toBeInTheDocument();
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/v1/apps/support-tickets');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      filter: 'Status==Open',
      sort: '-Priority',
      first: '100',
      after: 'abc',
    });
  });
});

describe('RecordsTable', () => {
  it('keeps only a screenful of 10,000 rows in the DOM and marks the sort with aria-sort', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ticket(i + 1));
    const onSort = vi.fn();
    const onOpen = vi.fn();
    const { user } = renderWithQuery(
      <RecordsTable
        definition={ticketsDefinition}
        rows={rows}
        columns={['id', 'Title', 'Priority', 'Updated At']}
        sort="-Priority"
        onSort={onSort}
        onOpen={onOpen}
        recordHref={(id) => `/x/${id}`}
      />,
    );
    const bodyRows = screen.getAllByRole('row').slice(1);
    expect(bodyRows.length).toBeGreaterThan(10);
    expect(bodyRows.length).toBeLessThan(80);
    expect(screen.getByRole('columnheader', { name: 'Priority' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(screen.getByRole('columnheader', { name: 'Title' })).toHaveAttribute(
      'aria-sort',
      'none',
    );
    await user.click(screen.getByRole('button', { name: 'Title' }));
    expect(onSort).toHaveBeenCalledWith('Title');
    const first = bodyRows[0];
    if (!first) throw new Error('no row');
    await user.click(within(first).getByText('Ticket 1'));
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith('SUP-1'));
    // Updated At renders in the viewer's zone (Europe/Paris here): 12:30 UTC is 14:30 local.
    expect(within(first).getByText(/14:30|2:30/)).toHaveAttribute(
      'datetime',
      '2024-07-01T12:30:00.000Z',
    );
  });

  it('renders the first screen with little overscan, and the rest of the overscan once idle', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ticket(i + 1));
    renderWithQuery(
      <RecordsTable
        definition={ticketsDefinition}
        rows={rows}
        columns={['id', 'Title']}
        sort={undefined}
        onSort={vi.fn()}
        onOpen={vi.fn()}
        recordHref={(id) => `/x/${id}`}
      />,
    );
    const first = screen.getAllByRole('row').length - 1;
    // The screenful (800 px of 37 px rows) and two rows past it, nothing more yet.
    expect(first).toBe(Math.ceil(800 / ROW_HEIGHT) + 2);
    await waitFor(() => expect(screen.getAllByRole('row').length - 1).toBe(first + 10));
  });
});

describe('RecordsTable selection', () => {
  const rows = [ticket(1), ticket(2), ticket(3)];
  const renderTable = (selected: ReadonlySet<string>) => {
    const onToggle = vi.fn();
    const onToggleAll = vi.fn();
    const view = renderWithQuery(
      <RecordsTable
        definition={ticketsDefinition}
        rows={rows}
        columns={['id', 'Title']}
        sort={undefined}
        onSort={noop}
        onOpen={noop}
        recordHref={(id) => `/x/${id}`}
        selection={{ selected, onToggle, onToggleAll }}
      />,
    );
    return { ...view, onToggle, onToggleAll };
  };

  it('checks one row, and all loaded rows from the header checkbox', async () => {
    const { user, onToggle, onToggleAll } = renderTable(new Set());
    const all = screen.getByRole('checkbox', { name: 'Select all loaded rows' });
    expect(all).not.toBeChecked();
    expect(all).toHaveProperty('indeterminate', false);
    await user.click(screen.getByRole('checkbox', { name: 'Select SUP-2' }));
    expect(onToggle).toHaveBeenCalledWith('SUP-2');
    await user.click(all);
    expect(onToggleAll).toHaveBeenCalledWith(['SUP-1', 'SUP-2', 'SUP-3']);
  });

  it('shows a partial selection as indeterminate and a full one as checked', () => {
    const { unmount } = renderTable(new Set(['SUP-1']));
    const some = screen.getByRole('checkbox', { name: 'Select all loaded rows' });
    expect(some).not.toBeChecked();
    expect(some).toHaveProperty('indeterminate', true);
    expect(screen.getByRole('checkbox', { name: 'Select SUP-1' })).toBeChecked();
    unmount();
    renderTable(new Set(['SUP-1', 'SUP-2', 'SUP-3']));
    const all = screen.getByRole('checkbox', { name: 'Select all loaded rows' });
    expect(all).toBeChecked();
    expect(all).toHaveProperty('indeterminate', false);
  });
});

describe('RecordsView against the hosted service', () => {
  const hostedTicket = (n: number, priority: string): RecordData => ({
    'Ticket ID': `SUP-${n}`,
    Title: `Ticket ${n}`,
    Status: 'Open',
    Priority: priority,
  });
  const renderHosted = (search: { sort?: string }) =>
    renderWithQuery(
      <CapabilitiesContext value={capabilitiesFor('hosted')}>
        <RecordsView
          definition={hostedTicketsDefinition}
          search={search}
          onSearchChange={noop}
          onOpen={noop}
          onCreate={noop}
          recordHref={(id) => `/x/${id}`}
        />
      </CapabilitiesContext>,
    );

  it('sends no sort, sorts the loaded rows itself, says so, and can load all to sort them', async () => {
    // Enough rows that the table does not load the next page by itself (it does when fewer than
    // PREFETCH_ROWS are left below the screen).
    const first = {
      paging: { end_cursor: 'p2', has_next_page: true },
      items: Array.from({ length: 120 }, (_, i) => ({ data: hostedTicket(i + 1, String(i + 10)) })),
    };
    const second = { items: [{ data: hostedTicket(121, '1') }] };
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) =>
        jsonResponse(new URL(String(input), 'http://x').searchParams.get('after') ? second : first),
      );
    const { user } = renderHosted({ sort: '-Priority' });
    const note = await screen.findByTestId('local-sort-note');
    expect(note).toHaveTextContent('Sorted within the 120 loaded records only');
    const firstHandle = () => screen.getAllByRole('link', { name: /^SUP-/ })[0]?.textContent;
    expect(firstHandle()).toBe('SUP-120');
    // No total from the service: the status says what is known, not a made-up count.
    expect(screen.getByTestId('records-status')).toHaveTextContent('120 loaded, more available');
    await user.click(within(note).getByRole('button', { name: /Load up to 5,000 and sort/ }));
    await waitFor(() =>
      expect(screen.getByTestId('local-sort-note')).toHaveTextContent('all 121 records are loaded'),
    );
    expect(firstHandle()).toBe('SUP-120');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    for (const [input] of fetchMock.mock.calls) {
      expect(new URL(String(input), 'http://x').searchParams.has('sort')).toBe(false);
    }
  });

  it('sorts ascending by number, not text, in the browser', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse({
        items: [
          { data: hostedTicket(1, '10') },
          { data: hostedTicket(2, '9') },
          { data: hostedTicket(3, '') },
        ],
      }),
    );
    renderHosted({ sort: 'Priority' });
    await screen.findByTestId('local-sort-note');
    expect(screen.getAllByRole('link', { name: /^SUP-/ }).map((l) => l.textContent)).toEqual([
      'SUP-2',
      'SUP-1',
      'SUP-3',
    ]);
  });

  it('lists records without a handle, not openable, saying why', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse({ items: [{ data: hostedTicket(1, '1') }, { data: { Title: 'No handle' } }] }),
    );
    const onOpen = vi.fn();
    const { user } = renderWithQuery(
      <CapabilitiesContext value={capabilitiesFor('hosted')}>
        <RecordsView
          definition={hostedTicketsDefinition}
          search={{}}
          onSearchChange={noop}
          onOpen={onOpen}
          onCreate={noop}
          recordHref={(id) => `/x/${id}`}
        />
      </CapabilitiesContext>,
    );
    const row = (await screen.findByText('No handle')).closest('tr');
    if (!row) throw new Error('no row');
    expect(row).toHaveAttribute('title', expect.stringMatching(/no value in Ticket ID/));
    expect(within(row).getByText(/Cannot be opened/)).toBeInTheDocument();
    await user.click(within(row).getByText('No handle'));
    expect(onOpen).not.toHaveBeenCalled();
    await user.click(screen.getByText('Ticket 1'));
    expect(onOpen).toHaveBeenCalledWith('SUP-1');
    // The handle column leads and is named by the description, not `ID`.
    expect(screen.getAllByRole('columnheader')[0]).toHaveTextContent('Ticket ID');
  });

  it('counts items the service sent without what the console needs instead of failing', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse({
        items: [{ data: hostedTicket(1, '1') }, { cursor: 'x', data: 'not a record' }],
      }),
    );
    renderHosted({});
    expect(await screen.findByText('Ticket 1')).toBeInTheDocument();
    expect(screen.getByTestId('skipped-note')).toHaveTextContent('1 record could not be shown');
  });

  it('reads a record once when the pointer rests on its row, and not again when it opens', async () => {
    const gets: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      gets.push(path);
      return jsonResponse(ticket(Number(path.split('-').at(-1))), 200, { ETag: '"v1"' });
    });
    const rows = Array.from({ length: 20 }, (_, i) => ticket(i + 1));
    const prefetch = (id: string) =>
      void queryClient.prefetchQuery(recordQueryOptions('apps', 'support-tickets', id));
    const { queryClient } = renderWithQuery(
      <RecordsTable
        definition={ticketsDefinition}
        rows={rows}
        columns={['id', 'Title', 'Priority']}
        sort={undefined}
        onSort={noop}
        onOpen={noop}
        onIntent={prefetch}
        recordHref={(id) => `/x/${id}`}
      />,
    );
    const row = (id: string) => document.querySelector(`tr[data-row-id="${id}"]`) as HTMLElement;
    // Passing over a row on the way to another starts nothing.
    fireEvent.mouseOver(within(row('SUP-1')).getByText('Ticket 1'));
    fireEvent.mouseOver(within(row('SUP-2')).getByText('Ticket 2'));
    // Resting on it, moving between its cells, starts one read.
    fireEvent.mouseOver(within(row('SUP-2')).getByText('2'));
    await waitFor(() => expect(gets).toEqual(['/api/v1/apps/support-tickets/SUP-2']));
    fireEvent.mouseLeave(row('SUP-2').closest('tbody') as HTMLElement);
    fireEvent.mouseOver(within(row('SUP-2')).getByText('Ticket 2'));
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Opening it: the route's loader and the panel ask for the same record, from the cache.
    await queryClient.prefetchQuery(recordQueryOptions('apps', 'support-tickets', 'SUP-2'));
    await queryClient.ensureQueryData(recordQueryOptions('apps', 'support-tickets', 'SUP-2'));
    expect(gets).toEqual(['/api/v1/apps/support-tickets/SUP-2']);
  });
});
