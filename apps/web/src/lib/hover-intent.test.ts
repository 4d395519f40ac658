import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HoverIntent } from './hover-intent.ts';
import { INTENT_DELAY_MS } from './intent-delay.ts';

describe('HoverIntent', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts after the pointer rested on one item, once, however it moves inside it', () => {
    const onIntent = vi.fn();
    const intent = new HoverIntent(onIntent);
    intent.over('SUP-1');
    vi.advanceTimersByTime(INTENT_DELAY_MS - 10);
    intent.over('SUP-1'); // another cell of the same row: the wait goes on
    vi.advanceTimersByTime(10);
    expect(onIntent).toHaveBeenCalledTimes(1);
    expect(onIntent).toHaveBeenCalledWith('SUP-1');
    intent.over('SUP-1');
    vi.advanceTimersByTime(INTENT_DELAY_MS * 3);
    expect(onIntent).toHaveBeenCalledTimes(1);
  });

  it('starts nothing for items passed over or left before the delay', () => {
    const onIntent = vi.fn();
    const intent = new HoverIntent(onIntent);
    intent.over('SUP-1');
    vi.advanceTimersByTime(40);
    intent.over('SUP-2');
    vi.advanceTimersByTime(40);
    intent.over(undefined); // a row without a handle
    vi.advanceTimersByTime(40);
    intent.over('SUP-3');
    vi.advanceTimersByTime(40);
    intent.leave();
    vi.advanceTimersByTime(INTENT_DELAY_MS * 3);
    expect(onIntent).not.toHaveBeenCalled();
  });
});
