// The captured writes' pool: at most `size` places per key, the rest wait first come first
// served, a waiter that gives up leaves the line, and a release is counted once.
import { describe, expect, it } from 'vitest';

import { createWaitingPool } from './waiting-pool.ts';

describe('createWaitingPool', () => {
  it('gives places up to its size per key; the next waits for a release, in order', async () => {
    const pool = createWaitingPool(2);
    const a = await pool.acquire('r1');
    await pool.acquire('r1');
    // Another key has its own places.
    const other = await pool.acquire('r2');
    const order: string[] = [];
    const third = pool.acquire('r1').then((slot) => (order.push('third'), slot));
    const fourth = pool.acquire('r1').then((slot) => (order.push('fourth'), slot));
    expect(pool.usage('r1')).toEqual({ held: 2, waiting: 2 });
    a.release();
    a.release();
    await third;
    expect(order).toEqual(['third']);
    expect(pool.usage('r1')).toEqual({ held: 2, waiting: 1 });
    (await third).release();
    (await fourth).release();
    other.release();
    expect(pool.usage('r2')).toEqual({ held: 0, waiting: 0 });
    expect(pool.usage('r1')).toEqual({ held: 1, waiting: 0 });
  });

  it('a waiter whose signal aborts leaves the line with the reason', async () => {
    const pool = createWaitingPool(1);
    const held = await pool.acquire('r');
    const controller = new AbortController();
    const waiting = pool.acquire('r', controller.signal);
    controller.abort(new Error('browser left'));
    await expect(waiting).rejects.toThrow('browser left');
    expect(pool.usage('r')).toEqual({ held: 1, waiting: 0 });
    held.release();
    expect(pool.usage('r')).toEqual({ held: 0, waiting: 0 });
    await expect(pool.acquire('r', controller.signal)).rejects.toThrow('browser left');
  });
});
