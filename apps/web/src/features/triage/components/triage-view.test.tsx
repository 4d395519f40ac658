import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import { sizeScrollContainer } from '@/testing/layout.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { TriageView } from './triage-view.tsx';

const BASE = '/api/v1/apps/support-tickets';

function ticket(n: number, extra: RecordData = {}): RecordData {
  return {
    id: `SUP-${n}`,
    Title: `Ticket ${n}`,
    Status: 'New',
    Severity: 'Low',
    'Created At': '2024-01-01T00:00:00.000Z',
    'Created By': 'a@x.io',
    'Updated At': '2024-07-01T12:30:00.000Z',
    'Updated By': 'a@x.io',
    ...extra,
  };
}

/** A PUT the fake API holds until the test lets it go (`answer`) or refuses it (`refuse`). */
interface HeldPut {
  id: string;
  body: RecordData | undefined;
  answer: () => void;
  refuse: (status: number, body: object) => void;
}

/**
 * A tiny in-memory API behind fetch: a queue of three tickets, GET and PUT with ETags. With
 * `hold`, PUTs wait in `held` for the test to answer or refuse them.
 */
function fakeApi({ hold = false }: { hold?: boolean } = {}) {
  const store = new Map([1, 2, 3].map((n) => [`SUP-${n}`, ticket(n)]));
  const versions = new Map([...store.keys()].map((id) => [id, 1]));
  const calls: { method: string; path: string; ifMatch: string | null; body: unknown }[] = [];
  const held: HeldPut[] = [];
  const answer = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as RecordData) : undefined;
    calls.push({ method, path: url.pathname, ifMatch: headers.get('if-match'), body });
    if (url.pathname === BASE) {
      return jsonResponse({
        paging: {
          has_previous_page: false,
          start_cursor: null,
          end_cursor: null,
          has_next_page: false,
        },
        total: store.size,
        items: [...store.values()].map((data, i) => ({ cursor: `c${i}`, data })),
      });
    }
    const id = decodeURIComponent(url.pathname.slice(BASE.length + 1));
    const record = store.get(id);
    if (!record) return jsonResponse({ status: 404, title: 'Not Found' }, 404);
    if (method === 'PUT') {
      if (headers.get('if-match') !== `"v${versions.get(id)}"`) {
        return jsonResponse({ status: 412, title: 'Precondition Failed' }, 412);
      }
      Object.assign(record, body);
      versions.set(id, (versions.get(id) ?? 0) + 1);
    }
    return jsonResponse(record, 200, { ETag: `"v${versions.get(id)}"` });
  });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (!hold || init?.method !== 'PUT') return answer(input, init);
    const url = new URL(String(input), 'http://localhost');
    const id = decodeURIComponent(url.pathname.slice(BASE.length + 1));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as RecordData) : undefined;
    return new Promise<Response>((resolve) => {
      held.push({
        id,
        body,
        answer: () => void answer(input, init).then(resolve),
        refuse: (status, problem) => resolve(jsonResponse({ status, ...problem }, status)),
      });
    });
  });
  return { store, calls, versions, held };
}

function Page() {
  const [id, setId] = useState<string | undefined>(undefined);
  return <TriageView definition={ticketsDefinition} currentId={id} onCurrentChange={setId} />;
}

// The queue's scroll box gets a size, so that its virtualizer renders items in jsdom.
sizeScrollContainer('triage-list');

function renderTriage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rootRoute = createRootRoute({ component: Page });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup() };
}

const currentId = () => screen.getByTestId('triage-record-id');
const queueItem = (id: string) => {
  const item = document.querySelector<HTMLElement>(`[data-row-id="${id}"]`);
  if (!item) throw new Error(`no queue item ${id}`);
  return item;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TriageView', () => {
  it('prefetches the next record, so j shows it without another request', async () => {
    const { calls } = fakeApi();
    const { user } = renderTriage();
    await waitFor(() => expect(currentId()).toHaveTextContent('SUP-1'));
    const gets = (id: string) =>
      calls.filter((c) => c.method === 'GET' && c.path === `${BASE}/${id}`);
    await waitFor(() => expect(gets('SUP-2')).toHaveLength(1));

    // Shown straight from the cache (the time itself is measured in Chromium: e2e/tests/triage).
    await user.keyboard('j');
    expect(currentId()).toHaveTextContent('SUP-2');
    expect(screen.getByRole('heading', { name: 'Ticket 2' })).toBeInTheDocument();
    expect(gets('SUP-2')).toHaveLength(1);
    expect(screen.getByTestId('triage-position')).toHaveTextContent('2 of 3');
  });

  it('sets status and severity with single keys and undoes with If-Match', async () => {
    const { store, calls } = fakeApi();
    const { user } = renderTriage();
    await waitFor(() => expect(currentId()).toHaveTextContent('SUP-1'));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status' })).toBeInTheDocument());

    await user.keyboard('2');
    await waitFor(() => expect(store.get('SUP-1')?.Status).toBe('Open'));
    await user.keyboard('{Shift>}[Digit4]{/Shift}');
    await waitFor(() => expect(store.get('SUP-1')?.Severity).toBe('Critical'));
    const puts = () => calls.filter((c) => c.method === 'PUT');
    expect(puts().map((c) => [c.body, c.ifMatch])).toEqual([
      [{ Status: 'Open' }, '"v1"'],
      [{ Severity: 'Critical' }, '"v2"'],
    ]);
    expect(screen.getByTestId('triage-status')).toHaveTextContent('Press u to undo');

    await user.keyboard('u');
    await waitFor(() => expect(store.get('SUP-1')?.Severity).toBe('Low'));
    expect(puts()[2]).toMatchObject({ body: { Severity: 'Low' }, ifMatch: '"v3"' });
    await user.keyboard('u');
    await waitFor(() => expect(store.get('SUP-1')?.Status).toBe('New'));
    await user.keyboard('u');
    expect(screen.getByTestId('triage-status')).toHaveTextContent('Nothing to undo.');
  });

  it('a stale single-key write saves nothing and names what someone else changed', async () => {
    const { store, calls, versions } = fakeApi();
    const { user } = renderTriage();
    await waitFor(() => expect(currentId()).toHaveTextContent('SUP-1'));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status' })).toBeInTheDocument());
    // Someone else sets Status while SUP-1 is on screen: the copy in the cache is now stale.
    const before = calls.length;
    Object.assign(store.get('SUP-1') ?? {}, { Status: 'Pending' });
    versions.set('SUP-1', 2);
    await user.keyboard('2');
    await waitFor(() =>
      expect(screen.getByTestId('triage-status')).toHaveTextContent(
        'SUP-1 was changed by someone else: Status is now Pending (you chose Open). Reloaded it; nothing was saved.',
      ),
    );
    expect(store.get('SUP-1')?.Status).toBe('Pending');
    expect(calls.slice(before).filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('n saves the editor’s changes, then moves to the next record', async () => {
    const { store } = fakeApi();
    const { user } = renderTriage();
    await waitFor(() => expect(currentId()).toHaveTextContent('SUP-1'));
    await user.keyboard('e');
    const title = screen.getByRole('textbox', { name: 'Title' });
    expect(title).toHaveFocus();
    await user.type(title, ' (edited) jk');
    expect(currentId()).toHaveTextContent('SUP-1');
    await user.keyboard('{Escape}n');
    await waitFor(() => expect(currentId()).toHaveTextContent('SUP-2'));
    expect(store.get('SUP-1')?.Title).toBe('Ticket 1 (edited) jk');
  });

  it('paints a key at once, marked Saving…, while its write is still held', async () => {
    const { held, store } = fakeApi({ hold: true });
    const { user } = renderTriage();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status' })).toBeInTheDocument());
    await user.keyboard('2');
    const status = screen.getByRole('group', { name: 'Status' });
    expect(within(status).getByRole('button', { pressed: true })).toHaveTextContent('Open');
    expect(within(status).getByRole('status')).toHaveTextContent('Saving…');
    expect(queueItem('SUP-1')).toHaveTextContent('Open');
    expect(queueItem('SUP-1')).toHaveTextContent('Saving…');
    await waitFor(() => expect(held).toHaveLength(1));
    expect(store.get('SUP-1')?.Status).toBe('New');
    held[0]?.answer();
    await waitFor(() =>
      expect(screen.getByTestId('triage-status')).toHaveTextContent(
        'SUP-1: Status → Open. Press u to undo.',
      ),
    );
    expect(within(status).getByRole('status')).toBeEmptyDOMElement();
    expect(queueItem('SUP-1')).not.toHaveTextContent('Saving…');
  });

  it('a refusal after the user moved on rolls back that record alone, names it, and keeps the place', async () => {
    const { held, store } = fakeApi({ hold: true });
    const { user } = renderTriage();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status' })).toBeInTheDocument());
    await user.keyboard('2');
    await user.keyboard('j');
    expect(currentId()).toHaveTextContent('SUP-2');
    await user.keyboard('5');
    await waitFor(() => expect(held).toHaveLength(2));
    // Both records show their new status while both writes are held.
    expect(queueItem('SUP-1')).toHaveTextContent('Open');
    expect(queueItem('SUP-2')).toHaveTextContent('Closed');

    held[0]?.refuse(422, {
      title: 'Unprocessable Content',
      errors: [{ field: 'Status', message: 'needs an assignee first' }],
    });
    await waitFor(() =>
      expect(screen.getByTestId('triage-status')).toHaveTextContent(
        'SUP-1: Status → Open not saved, rolled back. Some values were not accepted (Status: needs an assignee first).',
      ),
    );
    expect(queueItem('SUP-1')).toHaveTextContent('New');
    expect(queueItem('SUP-1')).not.toHaveTextContent('Saving…');
    // The user is where they were: SUP-2, still showing its own pending change.
    expect(currentId()).toHaveTextContent('SUP-2');
    expect(queueItem('SUP-2')).toHaveTextContent('Closed');
    expect(within(queueItem('SUP-2')).getByRole('button')).toHaveAttribute('aria-current', 'true');

    held[1]?.answer();
    await waitFor(() => expect(store.get('SUP-2')?.Status).toBe('Closed'));
    expect(store.get('SUP-1')?.Status).toBe('New');
    // The refused change is not undoable: u undoes SUP-2's.
    await waitFor(() => expect(screen.getByTestId('triage-status')).toHaveTextContent('SUP-2'));
    await user.keyboard('u');
    await waitFor(() => expect(held).toHaveLength(3));
    expect(held[2]).toMatchObject({ id: 'SUP-2', body: { Status: 'New' } });
  });

  it('undo of a write still queued withdraws it; of one on the wire, writes the old value after it', async () => {
    const { held, store, calls } = fakeApi({ hold: true });
    const { user } = renderTriage();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status' })).toBeInTheDocument());
    await user.keyboard('2');
    await user.keyboard('3');
    const pressed = () =>
      within(screen.getByRole('group', { name: 'Status' })).getByRole('button', { pressed: true });
    expect(pressed()).toHaveTextContent('Pending');
    await waitFor(() => expect(held).toHaveLength(1));

    // The second key waits for the first on the wire: undoing it sends nothing.
    await user.keyboard('u');
    expect(pressed()).toHaveTextContent('Open');
    expect(screen.getByTestId('triage-status')).toHaveTextContent(
      'SUP-1: undone (Status → Open) before it was sent.',
    );
    // The first is on the wire: its undo is painted at once and written after it.
    await user.keyboard('u');
    expect(pressed()).toHaveTextContent('New');
    held[0]?.answer();
    await waitFor(() => expect(held).toHaveLength(2));
    expect(held[1]).toMatchObject({ body: { Status: 'New' } });
    held[1]?.answer();
    await waitFor(() => expect(store.get('SUP-1')?.Status).toBe('New'));
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => [c.body, c.ifMatch])).toEqual([
      [{ Status: 'Open' }, '"v1"'],
      [{ Status: 'New' }, '"v2"'],
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('triage-status')).toHaveTextContent(
        'SUP-1: undone (Status → New).',
      ),
    );
  });
});
