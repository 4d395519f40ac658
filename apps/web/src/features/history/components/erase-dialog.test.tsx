// The administrators' erase in the log (issue 26): people are offered by id with how verified
// their name is, the confirmation says what goes and what stays, and the erase names what it did.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderWithQuery, ticketsDefinition } from '@/testing/render.tsx';

import { EraseDialog, personErasedText } from './erase-dialog.tsx';
import { actorOption } from './people-select.tsx';

const PEOPLE = [
  { id: 'u-ana', name: 'Ana Lima', identity: 'api' },
  { id: 'u-mal', name: 'admin@x.example (unverified)', identity: 'self' },
];

/** What the BFF answers for a person's erase. */
const ERASED = {
  history: 3,
  presence: 0,
  savedViews: 1,
  bulkRuns: 0,
  preferences: 0,
  sessions: 1,
  budget: 1,
};

afterEach(() => {
  vi.restoreAllMocks();
});

/** The BFF: the people list, and the erase calls (recorded). */
function serve(calls: string[]) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
    if (url.pathname === '/bff/history/actors') return jsonResponse({ items: PEOPLE });
    const csrf = new Headers(init?.headers).get('x-csrf') ?? '';
    calls.push(`${init?.method ?? 'GET'} ${url.pathname} ${csrf}`);
    if (url.pathname.startsWith('/bff/history/people/')) {
      return jsonResponse(ERASED);
    }
    return jsonResponse({ history: 2 });
  });
}

describe('EraseDialog', () => {
  it('erases everything kept about the person picked by id, after saying what stays', async () => {
    const calls: string[] = [];
    serve(calls);
    const onClose = vi.fn();
    const { user } = renderWithQuery(
      <EraseDialog definitions={[ticketsDefinition]} person={undefined} onClose={onClose} />,
    );
    await user.click(screen.getByRole('radio', { name: 'Everything kept about a person' }));
    expect(screen.getByText(/Not erased: their name or email inside other people/)).toBeVisible();
    await screen.findByRole('option', {
      name: 'admin@x.example (unverified: an email typed at sign-in)',
    });
    const person = screen.getByLabelText('Person');
    await user.selectOptions(person, 'u-mal');
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toEqual(['DELETE /bff/history/people/u-mal 1']);
  });

  it("erases one record's history", async () => {
    const calls: string[] = [];
    serve(calls);
    const onClose = vi.fn();
    const { user } = renderWithQuery(
      <EraseDialog definitions={[ticketsDefinition]} person={undefined} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Record'), 'SUP-7');
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toEqual(['DELETE /bff/history/apps/support-tickets/SUP-7 1']);
  });

  it('names a person with their identity kind, and says what an erase removed', () => {
    expect(actorOption({ id: 'u', name: 'Ana Lima', identity: 'operator' })).toBe(
      'Ana Lima (named by the operator)',
    );
    expect(personErasedText(ERASED)).toBe('Erased 3 history entries, 1 saved view and 1 session.');
  });
});
