import { describe, expect, it } from 'vitest';

import type { FailureInfo } from './scheduler.ts';
import { runBulk } from './scheduler.ts';

class RateLimited extends Error {
  constructor(readonly retryAfter?: number) {
    super('429');
  }
}
class Refused extends Error {
  constructor(readonly status: number) {
    super(`refused ${status}`);
  }
}

const describeError = (error: unknown): FailureInfo =>
  error instanceof RateLimited
    ? { status: 429, retryAfter: error.retryAfter, reason: 'Too many requests' }
    : error instanceof Refused
      ? { status: error.status, reason: error.message }
      : { reason: String(error) };

/** A virtual clock: sleeping advances time instantly, so tests see exact waits. */
function virtualTime() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
      await Promise.resolve();
    },
    sleeps,
  };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `SUP-${i + 1}` }));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runBulk', () => {
  it('never has more than `concurrency` requests in flight and settles every item', async () => {
    let inFlight = 0;
    let peak = 0;
    const outcomes = await runBulk(
      items(20),
      async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await tick();
        inFlight--;
      },
      { concurrency: 4, describe: describeError },
    );
    expect(peak).toBe(4);
    expect(outcomes).toHaveLength(20);
    expect(outcomes.every((o) => o.ok)).toBe(true);
  });

  it('paces starts at least minIntervalMs apart', async () => {
    const clock = virtualTime();
    const starts: number[] = [];
    await runBulk(
      items(5),
      async () => {
        starts.push(clock.now());
      },
      { concurrency: 1, minIntervalMs: 50, describe: describeError, ...clock },
    );
    expect(starts).toEqual([0, 50, 100, 150, 200]);
  });

  it('on 429 pauses every lane for Retry-After seconds, then retries the same item', async () => {
    const clock = virtualTime();
    const calls: { id: string; at: number }[] = [];
    let limited = false;
    const outcomes = await runBulk(
      items(4),
      async (item) => {
        calls.push({ id: item.id, at: clock.now() });
        if (item.id === 'SUP-2' && !limited) {
          limited = true;
          throw new RateLimited(3);
        }
      },
      { concurrency: 1, describe: describeError, ...clock },
    );
    expect(calls.map((c) => c.id)).toEqual(['SUP-1', 'SUP-2', 'SUP-2', 'SUP-3', 'SUP-4']);
    // The retry (and everything after it) waited the 3 s the API asked for.
    expect(calls[2]?.at).toBe(3_000);
    expect(clock.sleeps).toEqual([3_000]);
    expect(outcomes.find((o) => o.id === 'SUP-2')).toEqual({ id: 'SUP-2', ok: true, attempts: 2 });
  });

  it('backs off exponentially without Retry-After and gives up after maxAttempts', async () => {
    const clock = virtualTime();
    const outcomes = await runBulk(
      items(1),
      async () => {
        throw new RateLimited();
      },
      { concurrency: 1, maxAttempts: 3, baseBackoffMs: 100, describe: describeError, ...clock },
    );
    expect(clock.sleeps).toEqual([100, 200]);
    expect(outcomes).toEqual([
      { id: 'SUP-1', ok: false, attempts: 3, reason: 'Too many requests', status: 429 },
    ]);
  });

  it('reports other failures with their reason, without retrying them', async () => {
    let calls = 0;
    const outcomes = await runBulk(
      items(3),
      async (item) => {
        calls++;
        if (item.id === 'SUP-2') throw new Refused(422);
      },
      { concurrency: 2, describe: describeError },
    );
    expect(calls).toBe(3);
    expect(outcomes.find((o) => o.id === 'SUP-2')).toEqual({
      id: 'SUP-2',
      ok: false,
      attempts: 1,
      reason: 'refused 422',
      status: 422,
    });
  });

  it('stops starting new requests when aborted and marks the rest cancelled', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const outcomes = await runBulk(
      items(5),
      async (item) => {
        seen.push(item.id);
        if (item.id === 'SUP-2') controller.abort();
      },
      { concurrency: 1, signal: controller.signal, describe: describeError },
    );
    expect(seen).toEqual(['SUP-1', 'SUP-2']);
    expect(outcomes.filter((o) => !o.ok).map((o) => o.id)).toEqual(['SUP-3', 'SUP-4', 'SUP-5']);
    expect(outcomes.every((o) => o.ok || o.reason === 'Cancelled')).toBe(true);
  });
});
