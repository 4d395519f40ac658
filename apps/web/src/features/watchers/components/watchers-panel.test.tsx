import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { heldFetch } from '@/testing/held-fetch.ts';
import { jsonResponse, ONLY_PAGE, renderWithQuery } from '@/testing/render.tsx';

import { WatchersPanel } from './watchers-panel.tsx';

const record = { recordType: 'apps', alias: 'support-tickets', id: 'SUP-5' } as const;
const watcher = {
  id: '00000000-0000-4000-8000-000000000010',
  target: {
    id: '00000000-0000-4000-8000-000000000011',
    type: 'User',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@helpdesk.example',
  },
};

describe('WatchersPanel', () => {
  let watchers: (typeof watcher)[];
  let writes: { method: string; body: unknown }[];

  beforeEach(() => {
    watchers = [watcher];
    writes = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') {
        writes.push({ method, body: JSON.parse(String(init?.body)) });
        watchers = [];
        return new Response(null, { status: 200 });
      }
      return jsonResponse({
        paging: ONLY_PAGE,
        total: watchers.length,
        items: watchers,
      });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists watchers with name and email and removes one by email', async () => {
    const { user } = renderWithQuery(<WatchersPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Watchers' });
    expect(list).toHaveTextContent('Grace Hopper');
    expect(list).toHaveTextContent('grace@helpdesk.example');
    await user.click(
      within(list).getByRole('button', { name: 'Remove Grace Hopper from watchers' }),
    );
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'DELETE', body: { users: ['grace@helpdesk.example'] } }]),
    );
    expect(await screen.findByText('Nobody is watching this record yet.')).toBeVisible();
  });

  it('shows a group watcher (published contract) read-only, with no remove button', async () => {
    watchers = [
      watcher,
      {
        id: '00000000-0000-4000-8000-000000000020',
        target: {
          id: '00000000-0000-4000-8000-000000000021',
          type: 'Group',
          name: 'Support Tier 2',
        },
      } as unknown as typeof watcher,
    ];
    renderWithQuery(<WatchersPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Watchers' });
    const [person, group] = within(list).getAllByTestId('watcher-row');
    expect(group).toHaveTextContent('Support Tier 2');
    expect(group).toHaveTextContent('Read-only');
    expect(within(group as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(person as HTMLElement).getByRole('button')).toHaveAccessibleName(
      'Remove Grace Hopper from watchers',
    );
  });

  it('removes at once, says so while pending, and puts the watcher back when refused', async () => {
    vi.restoreAllMocks();
    const wire = heldFetch((request) =>
      request.method === 'GET'
        ? jsonResponse({
            paging: ONLY_PAGE,
            total: 1,
            items: [watcher],
          })
        : undefined,
    );
    const { user } = renderWithQuery(<WatchersPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Watchers' });
    await user.click(
      within(list).getByRole('button', { name: 'Remove Grace Hopper from watchers' }),
    );
    // Gone in the next frame, with a live note that it is being saved.
    expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument();
    expect(screen.getByText('Removing grace@helpdesk.example…')).toBeInTheDocument();
    await waitFor(() => expect(wire.requests.map((r) => r.method)).toEqual(['DELETE']));
    wire.requests[0]?.respond(
      jsonResponse({ type: 'about:blank', title: 'Forbidden', status: 403 }, 403),
    );
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.queryByText('Removing grace@helpdesk.example…')).not.toBeInTheDocument();
  });
});
