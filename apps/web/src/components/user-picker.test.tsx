import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderWithRouter, usersPage } from '@/testing/render.tsx';

import { UserPicker } from './user-picker.tsx';

const people = usersPage([
  { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
  { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
]);

afterEach(() => {
  vi.restoreAllMocks();
});

/** The people search answers once `release()` has been called, filtering by the search term. */
function mockSearch() {
  const pending: Array<() => void> = [];
  let released = false;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const text = `${url.searchParams.get('filter') ?? ''}`.toLowerCase();
    const items = people.items.filter(
      (user) => text === '' || text.includes(user.lastName.toLowerCase()),
    );
    if (!released) await new Promise<void>((resolve) => pending.push(resolve));
    return jsonResponse({ ...people, total: items.length, items });
  });
  return {
    release: () => {
      released = true;
      for (const resolve of pending.splice(0)) resolve();
    },
  };
}

describe('UserPicker', () => {
  it('keeps messages out of the listbox and is aria-busy until the results settle', async () => {
    const search = mockSearch();
    renderWithRouter(<UserPicker value="" onChange={() => {}} ariaLabel="Assignee" />);
    const input = await screen.findByRole('combobox', { name: 'Assignee' });
    fireEvent.change(input, { target: { value: 'zzz' } });
    const popup = document.querySelector('[data-slot="user-picker-popup"]');
    expect(popup).toHaveAttribute('aria-busy', 'true');
    // While searching: a status message and no listbox (a listbox may only hold options).
    expect(await screen.findByRole('status')).toHaveTextContent('Searching');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-controls');
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
    act(() => search.release());
    await waitFor(() => expect(popup).toHaveAttribute('aria-busy', 'false'));
    expect(screen.getByRole('status')).toHaveTextContent('No one matches “zzz”.');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('lists only options, and points the combobox at the listbox once there are results', async () => {
    const search = mockSearch();
    renderWithRouter(<UserPicker value="" onChange={() => {}} ariaLabel="Assignee" />);
    const input = await screen.findByRole('combobox', { name: 'Assignee' });
    fireEvent.change(input, { target: { value: 'Hopper' } });
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
    act(() => search.release());
    const listbox = await screen.findByRole('listbox', { name: 'People' });
    const children = [...listbox.children];
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((child) => child.getAttribute('role') === 'option')).toBe(true);
    expect(within(listbox).getByRole('option', { name: /grace@example.com/ })).toBeVisible();
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', listbox.id);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
