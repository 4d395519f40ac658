import { describe, expect, it, vi } from 'vitest';

import { checkLiveQueueNow, holdLiveQueue, isLiveQueueHeld, watchLiveQueue } from './live-queue.ts';

describe('holdLiveQueue', () => {
  it("holds news-triggered checks of one definition's lists until every hold is released", () => {
    const tickets = vi.fn();
    const tasks = vi.fn();
    const unwatch = [
      watchLiveQueue('apps', 'hold-tickets', tickets),
      watchLiveQueue('tasks', 'hold-tasks', tasks),
    ];
    const first = holdLiveQueue('apps', 'hold-tickets');
    const second = holdLiveQueue('apps', 'hold-tickets');

    expect(checkLiveQueueNow('apps', 'hold-tickets')).toBe(0);
    expect(isLiveQueueHeld('apps', 'hold-tickets')).toBe(true);
    // Another definition's lists are not held.
    expect(isLiveQueueHeld('tasks', 'hold-tasks')).toBe(false);
    expect(checkLiveQueueNow('tasks', 'hold-tasks')).toBe(1);
    first();
    first(); // a second call of the same release changes nothing
    expect(checkLiveQueueNow('apps', 'hold-tickets')).toBe(0);
    expect(tickets).not.toHaveBeenCalled();

    second();
    expect(isLiveQueueHeld('apps', 'hold-tickets')).toBe(false);
    expect(checkLiveQueueNow('apps', 'hold-tickets')).toBe(1);
    expect(tickets).toHaveBeenCalledTimes(1);
    expect(tasks).toHaveBeenCalledTimes(1);
    for (const stop of unwatch) stop();
  });
});
