import { describe, expect, it } from 'vitest';

import { warmDateInputs } from './warm-date-inputs.ts';

describe('warmDateInputs', () => {
  it('puts a hidden date and date-time input in the page for a moment, and leaves nothing', () => {
    const before = document.body.innerHTML;
    const observer = new MutationObserver(() => undefined);
    observer.observe(document.body, { childList: true });

    warmDateInputs();

    const added = observer
      .takeRecords()
      .flatMap((record) => [...record.addedNodes])
      .filter((node): node is HTMLElement => node instanceof HTMLElement);
    observer.disconnect();
    expect(added).toHaveLength(1);
    const holder = added[0] as HTMLElement;
    expect([...holder.querySelectorAll('input')].map((input) => input.type)).toEqual([
      'date',
      'datetime-local',
    ]);
    expect(holder.getAttribute('aria-hidden')).toBe('true');
    expect(holder.style.visibility).toBe('hidden');
    expect(document.body.innerHTML).toBe(before);
  });
});
