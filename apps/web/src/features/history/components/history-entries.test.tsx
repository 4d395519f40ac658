// The history's entries as the record tab and the administrators' log show them (issue 26): an
// unverified name is marked as such, a "not kept" entry says the day's budget was used up, and the
// source reads as what the browser reported, not as a fact.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from '@wsc/api-client/bff-history';
import { NOT_KEPT_FIELD } from '@wsc/api-client/bff-history';

import { HistoryEntries } from './history-entries.tsx';

const NOW = Date.parse('2025-03-01T10:00:00.000Z');

function entry(id: string, extra: Partial<HistoryEntry>): HistoryEntry {
  return {
    id,
    changeId: `change-${id}`,
    at: '2025-03-01T09:00:00.000Z',
    actor: { id: 'u1', name: 'Ana Lima' },
    identity: 'api',
    recordType: 'apps',
    alias: 'support-tickets',
    recordId: 'SUP-1',
    kind: 'updated',
    field: 'Status',
    before: 'New',
    after: 'Open',
    source: 'editor',
    ...extra,
  };
}

describe('HistoryEntries', () => {
  it('marks a name typed at sign-in as unverified, and only that one', () => {
    render(
      <HistoryEntries
        now={NOW}
        entries={[
          entry('1', {
            actor: { id: 'u2', name: 'admin@x.example (unverified)' },
            identity: 'self',
          }),
          // Kept before names were marked: the kind alone marks it.
          entry('2', { actor: { id: 'u3', name: 'Alex Morgan' }, identity: 'self' }),
          entry('3', {}),
        ]}
      />,
    );
    const actors = screen.getAllByTestId('history-actor');
    expect(actors.map((a) => a.textContent)).toEqual([
      'admin@x.example (unverified)',
      'Alex Morgan (unverified)',
      'Ana Lima',
    ]);
    expect(actors[0]).toHaveAttribute('title', expect.stringMatching(/typed at sign-in/));
    expect(actors[2]).toHaveAttribute('title', 'verified by the service');
  });

  it("says a change past its author's daily budget was made but not kept", () => {
    render(
      <HistoryEntries
        now={NOW}
        entries={[entry('1', { field: NOT_KEPT_FIELD, before: null, after: null, notKept: true })]}
      />,
    );
    expect(screen.getByTestId('not-kept')).toHaveTextContent(
      /Not kept: this person's history for the day was full/,
    );
    expect(screen.queryByText(NOT_KEPT_FIELD)).not.toBeInTheDocument();
  });

  it('shows the source as what the browser reported', () => {
    render(<HistoryEntries now={NOW} entries={[entry('1', { source: 'triage' })]} />);
    const source = screen.getByLabelText('Source (as the browser reported it)');
    expect(source).toHaveTextContent('Triage');
    expect(source).toHaveAttribute('title', expect.stringMatching(/not verified/));
  });
});
