import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Group } from '@wsc/api-client';

import { jsonResponse, renderWithRouter, usersPage } from '@/testing/render.tsx';

import { GroupDetail } from './group-detail.tsx';

const group: Group = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Billing',
  assignable: true,
  watchable: false,
  mentionable: true,
  managed: false,
  dynamic: false,
  domains: [{ domain: 'example.com' }],
};

const people = usersPage([
  { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
  { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
  { email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' },
]);
const [ada, grace, alan] = people.items;

/** A tiny in-memory membership API behind the mocked fetch, recording the writes. */
function mockApi(initial: string[]) {
  const members = new Set(initial);
  const writes: { method: string; ids: string[] }[] = [];
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    if (url.pathname.endsWith('/users') && url.pathname.includes('/groups/')) {
      if (method === 'GET') {
        const items = people.items.filter((u) => members.has(u.id));
        return jsonResponse({ ...people, total: items.length, items });
      }
      const { userIds } = JSON.parse(String(init?.body)) as { userIds: string[] };
      writes.push({ method, ids: userIds });
      for (const id of userIds) {
        if (method === 'POST') members.add(id);
        else members.delete(id);
      }
      return new Response(null, { status: method === 'POST' ? 201 : 200 });
    }
    // The people search of the picker.
    return jsonResponse(people);
  });
  return { fetchMock, writes, members };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GroupDetail', () => {
  it('shows the flags in words and the members', async () => {
    mockApi([ada?.id ?? '']);
    renderWithRouter(<GroupDetail group={group} canManage />);
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    const flags = screen.getByRole('list', { name: 'Flags' });
    expect(flags).toHaveTextContent('Assignable');
    expect(flags).toHaveTextContent('Not watchable');
    expect(screen.getByText('Domains: example.com')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('members-total')).toHaveTextContent('1 member');
  });

  it('adds several people at once, says who was new, and Undo removes only them', async () => {
    const api = mockApi([ada?.id ?? '']);
    const { user } = renderWithRouter(<GroupDetail group={group} canManage />);
    const picker = await screen.findByRole('combobox', { name: 'Add members' });
    for (const name of ['Ada', 'Grace', 'Alan']) {
      await user.type(picker, name);
      // The results settle 200 ms after the last keystroke: an option of the previous results,
      // clicked as they are replaced (a busy machine gets there), would pick nobody.
      await waitFor(() =>
        expect(document.querySelector('[data-slot="user-picker-popup"]')).toHaveAttribute(
          'aria-busy',
          'false',
        ),
      );
      const option = await screen.findByRole('option', { name: new RegExp(name) });
      await user.click(option);
    }
    const chosen = await screen.findByRole('list', { name: 'People to add' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Add 3 members' }));

    const result = await screen.findByTestId('membership-result');
    expect(result).toHaveTextContent('Added 2 members (1 already was a member)');
    expect(api.writes).toEqual([{ method: 'POST', ids: [grace?.id, alan?.id] }]);
    expect(screen.queryByRole('list', { name: 'People to add' })).not.toBeInTheDocument();

    await user.click(within(result).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(result).toHaveTextContent('Removed 2 members'));
    expect(api.writes[1]).toEqual({ method: 'DELETE', ids: [grace?.id, alan?.id] });
    expect([...api.members]).toEqual([ada?.id]);
  });

  it('removes the checked members and Undo adds them back', async () => {
    const api = mockApi(people.items.map((u) => u.id));
    const { user } = renderWithRouter(<GroupDetail group={group} canManage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    await user.click(screen.getByRole('button', { name: 'Remove 2 members' }));
    const result = await screen.findByTestId('membership-result');
    expect(result).toHaveTextContent('Removed 2 members');
    expect(api.writes[0]).toEqual({ method: 'DELETE', ids: [ada?.id, alan?.id] });
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Ada Lovelace' })).not.toBeInTheDocument(),
    );

    await user.click(within(result).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(result).toHaveTextContent('Added 2 members'));
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('leaves out every change control for members', async () => {
    mockApi([ada?.id ?? '']);
    renderWithRouter(<GroupDetail group={group} canManage={false} />);
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  });

  it('offers no membership controls for a dynamic group, and says why', async () => {
    mockApi([ada?.id ?? '']);
    renderWithRouter(<GroupDetail group={{ ...group, dynamic: true }} canManage />);
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('membership-fixed')).toHaveTextContent('follow its rules');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('shows the controls with a note when the role is not known (the service decides)', async () => {
    mockApi([ada?.id ?? '']);
    renderWithRouter(<GroupDetail group={group} canManage roleKnown={false} />);
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('role-note')).toHaveTextContent(
      'the service checks your permissions',
    );
    expect(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' })).toBeInTheDocument();
  });
});
