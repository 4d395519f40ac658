import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { BulkResults } from './bulk-steps.tsx';

const outcomes = [
  { id: 'SUP-1', ok: true as const, attempts: 1 },
  { id: 'SUP-2', ok: false as const, attempts: 2, status: 412, reason: 'changed meanwhile' },
  { id: 'SUP-3', ok: true as const, attempts: 1 },
];

describe('BulkResults', () => {
  it('shows a run under way as done of total, with a bar the compositor can move', () => {
    render(<BulkResults running={{ total: 4, offset: 0 }} outcomes={outcomes} />);
    expect(screen.getByRole('status')).toHaveTextContent('3 of 4 done…');
    const bar = screen.getByRole('progressbar', { name: 'Bulk change progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '3');
    // Scaled rather than sized: a width transition lays out and paints the page every frame.
    const fill = bar.firstElementChild as HTMLElement;
    expect(fill.style.transform).toBe('scaleX(0.75)');
    expect(fill.style.width).toBe('');
    expect(fill.className).not.toMatch(/transition-\[width\]/);
  });

  it('lists failures first, then the rest, and sums up a finished run', () => {
    render(<BulkResults running={undefined} outcomes={outcomes} />);
    expect(screen.getByTestId('bulk-summary')).toHaveTextContent('2 changed, 1 failed.');
    const items = within(screen.getByRole('list', { name: 'Results per record' })).getAllByRole(
      'listitem',
    );
    expect(items.map((item) => item.textContent)).toEqual([
      'SUP-2Conflict: changed meanwhile',
      'SUP-1Changed',
      'SUP-3Changed',
    ]);
  });
});
