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

/** Every people search waits until `answer()`: each keystroke's search is held on its own. */
function mockHeldSearch() {
  const pending: Array<() => void> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const text = `${url.searchParams.get('filter') ?? ''}`.toLowerCase();
    const items = people.items.filter(
      (user) => !text.includes('lastname') || text.includes(user.lastName.toLowerCase()),
    );
    await new Promise<void>((resolve) => pending.push(resolve));
    return jsonResponse({ ...people, total: items.length, items });
  });
  return {
    waiting: () => pending.length,
    answer: () => {
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

  it('keeps the last results listed while the next search runs, and Enter waits for them', async () => {
    const search = mockHeldSearch();
    const onChange = vi.fn();
    renderWithRouter(<UserPicker value="" onChange={onChange} ariaLabel="Assignee" />);
    const input = await screen.findByRole('combobox', { name: 'Assignee' });
    const popup = () => document.querySelector('[data-slot="user-picker-popup"]');
    // Answers every search until the results settle (the unfiltered one first, then the term's).
    const settle = () =>
      waitFor(() => {
        act(() => search.answer());
        expect(popup()).toHaveAttribute('aria-busy', 'false');
      });
    fireEvent.change(input, { target: { value: 'Lovelace' } });
    await settle();
    expect(screen.getByRole('option', { name: /ada@example.com/ })).toBeVisible();
    expect(screen.queryByRole('option', { name: /grace@example.com/ })).not.toBeInTheDocument();

    // The next term: its search is held, the previous person stays listed, the popup is busy.
    fireEvent.change(input, { target: { value: 'Hopper' } });
    await waitFor(() => expect(search.waiting()).toBeGreaterThan(0));
    expect(popup()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('option', { name: /ada@example.com/ })).toBeVisible();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // Enter now would pick Ada for "Hopper": it waits for the results instead.
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).not.toHaveBeenCalled();

    await settle();
    expect(screen.getByRole('option', { name: /grace@example.com/ })).toBeVisible();
    expect(screen.queryByRole('option', { name: /ada@example.com/ })).not.toBeInTheDocument();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('grace@example.com');
  });
});
