import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { User } from '@wsc/api-client';

import { sizeScrollContainer } from '@/testing/layout.ts';
import {
  jsonResponse,
  renderWithQuery,
  renderWithRouter,
  ticketsDefinition,
  usersPage,
} from '@/testing/render.tsx';

import { CreateUserDialog, validateDraft } from './create-user-dialog.tsx';
import { UserDetail } from './user-detail.tsx';
import { UsersView } from './users-view.tsx';

const ada: User = {
  id: '00000000-0000-4000-8000-00000000000a',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  jobTitle: 'Engineer',
  status: 'ACTIVE',
};

const emptyPage = { ...usersPage([]) };

afterEach(() => {
  vi.restoreAllMocks();
});

sizeScrollContainer('users-scroll');

describe('validateDraft', () => {
  it('names each bad field', () => {
    expect(
      validateDraft({ email: 'nope', firstName: ' ', lastName: 'L', jobTitle: '' }).errors,
    ).toEqual({ email: 'Enter a valid email address', firstName: 'Required' });
    expect(
      validateDraft({ email: 'a@b.example', firstName: 'A', lastName: 'L', jobTitle: ' ' }).input,
    ).toEqual({ email: 'a@b.example', firstName: 'A', lastName: 'L' });
  });
});

describe('CreateUserDialog', () => {
  it("shows the API's 422 next to the email and creates once it is fixed", async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Unprocessable Content',
            status: 422,
            errors: [{ field: 'email', message: 'A user with this email already exists' }],
          },
          422,
        ),
      )
      .mockResolvedValueOnce(jsonResponse({ ...ada, email: 'ada2@example.com' }, 201));
    const onCreated = vi.fn();
    const { user } = renderWithQuery(
      <CreateUserDialog open onOpenChange={() => undefined} onCreated={onCreated} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'ADA@example.com');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Ada');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));

    const email = within(dialog).getByLabelText(/^Email/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('A user with this email already exists');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'ADA@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });

    await user.clear(email);
    await user.type(email, 'ada2@example.com');
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() =>
      expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: ada.id })),
    );
  });

  it('checks required fields before sending anything', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    const { user } = renderWithQuery(
      <CreateUserDialog open onOpenChange={() => undefined} onCreated={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();
    expect(screen.getByLabelText(/^Last name/)).toHaveAccessibleDescription('Required');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('UsersView', () => {
  it('sends the search box and the filter as one RSQL filter, and hides New user from members', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => jsonResponse(usersPage([ada])));
    const onSearchChange = vi.fn();
    const { user } = renderWithRouter(
      <UsersView
        search={{ q: 'ada', filter: 'status==ACTIVE' }}
        onSearchChange={onSearchChange}
        canManage={false}
        onCreated={() => undefined}
      />,
    );
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('users-status')).toHaveTextContent('1 loaded of 1 user');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('filter')).toBe(
      '(email=lki=ada,firstName=lki=ada,lastName=lki=ada,jobTitle=lki=ada);status==ACTIVE',
    );
    expect(screen.queryByRole('button', { name: 'New user' })).not.toBeInTheDocument();

    const box = screen.getByRole('searchbox', { name: 'Search users' });
    await user.clear(box);
    await user.type(box, 'grace');
    await waitFor(() => expect(onSearchChange).toHaveBeenLastCalledWith({ q: 'grace' }));
  });

  it('offers New user to administrators and shows an empty result plainly', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(emptyPage));
    renderWithRouter(
      <UsersView
        search={{ q: 'nobody' }}
        onSearchChange={() => undefined}
        canManage
        onCreated={() => undefined}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'No users match' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New user' })).toBeInTheDocument();
  });
});

describe('UserDetail', () => {
  it('lists open assigned records in the confirmation, then deactivates', async () => {
    const calls: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(
        `${init?.method ?? 'GET'} ${url.pathname}?${url.searchParams.get('filter') ?? ''}`,
      );
      if (url.pathname.endsWith('/deactivate')) return jsonResponse({ ...ada, status: 'INACTIVE' });
      if (url.pathname === '/api/v1/groups') return jsonResponse({ ...emptyPage });
      if (url.pathname.startsWith('/api/v1/users')) return jsonResponse(usersPage([]));
      const open = url.searchParams.get('filter')?.includes('=out=');
      return jsonResponse({
        paging: emptyPage.paging,
        total: open ? 1 : 3,
        items: [{ cursor: 'c', data: { id: 'SUP-7', Title: 'Printer on fire', Status: 'Open' } }],
      });
    });
    const { user } = renderWithRouter(
      <UserDetail user={ada} definitions={[ticketsDefinition]} canManage isSelf={false} />,
    );
    expect(await screen.findByText('1 open · 3 in all')).toBeInTheDocument();
    expect(await screen.findByText('Not in any group.')).toBeInTheDocument();
    expect(calls).toContain(
      'GET /api/v1/apps/support-tickets?Assignee==ada@example.com;Status=out=(Resolved,Closed)',
    );

    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Ada Lovelace?' });
    expect(within(dialog).getByTestId('owned-summary')).toHaveTextContent(
      '1 open record is assigned to them',
    );
    expect(within(dialog).getByRole('link', { name: 'SUP-7' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(calls).toContain(`POST /api/v1/users/${ada.id}/deactivate?`);
  });

  it('shows no Deactivate to members, for inactive users, or on your own page', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(emptyPage));
    const { unmount } = renderWithRouter(
      <UserDetail user={ada} definitions={[]} canManage={false} isSelf={false} />,
    );
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
    unmount();
    renderWithRouter(
      <UserDetail
        user={{ ...ada, status: 'INACTIVE' }}
        definitions={[]}
        canManage
        isSelf={false}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('detail-status')).toHaveTextContent('Inactive');
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
  });
});
