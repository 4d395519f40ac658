import { describe, expect, it } from 'vitest';

import { virtualClock } from '@/testing/virtual-clock.ts';

import type { FailureInfo } from './scheduler.ts';
import { handleBatches } from './batches.ts';
import { pacedFetch } from './paced-fetch.ts';
import { RequestBudget } from './request-budget.ts';
import { runBulk, runInBatches } from './scheduler.ts';

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

describe('runInBatches with paced requests', () => {
  type Call = { url: string; at: number; status?: number };

  /**
   * A service with its own token bucket (`quota` per `windowSeconds`) on the virtual clock:
   * answers 429 when empty, and states its RateLimit when `headers` is on.
   */
  function fakeService(
    clock: { now: () => number; sleep: (ms: number) => Promise<void> },
    options: { quota: number; windowSeconds: number; headers: boolean; roundTripMs?: number },
  ) {
    let tokens = options.quota;
    let updated = 0;
    const calls: Call[] = [];
    let inFlight = 0;
    let peakWrites = 0;
    let tooMany = 0;
    const fetch: typeof globalThis.fetch = async (input) => {
      const url = String(input);
      const call: Call = { url, at: clock.now() };
      calls.push(call);
      const write = url.startsWith('/write');
      if (write) peakWrites = Math.max(peakWrites, ++inFlight);
      tokens = Math.min(
        options.quota,
        tokens + ((clock.now() - updated) / 1000) * (options.quota / options.windowSeconds),
      );
      updated = clock.now();
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      else tooMany++;
      await clock.sleep(options.roundTripMs ?? 10);
      if (write) inFlight--;
      const headers = new Headers(
        options.headers
          ? {
              RateLimit: `"p";r=${Math.floor(tokens)};t=1`,
              'RateLimit-Policy': `"p";q=${options.quota};w=${options.windowSeconds}`,
            }
          : {},
      );
      if (!allowed) headers.set('Retry-After', '1');
      call.status = allowed ? 200 : 429;
      return new Response('{}', { status: allowed ? 200 : 429, headers });
    };
    return { fetch, calls, peak: () => peakWrites, tooMany: () => tooMany };
  }

  const failure = (response: Response): FailureInfo => ({
    status: response.status,
    retryAfter: Number(response.headers.get('retry-after') ?? 1),
    reason: `HTTP ${response.status}`,
  });
  const describeFailure = (error: unknown): FailureInfo =>
    error instanceof Response ? failure(error) : describeError(error);
  /** Throws the Response itself for a refusal: the scheduler's describe reads it. */
  const ok = async (response: Promise<Response>) => {
    const answered = await response;
    if (!answered.ok) throw answered;
    return answered;
  };

  async function run(
    service: ReturnType<typeof fakeService>,
    clock: ReturnType<typeof virtualClock>,
    budget: RequestBudget,
    n: number,
    batchSize = 100,
  ) {
    const paced = pacedFetch(budget, service.fetch);
    return runInBatches(
      handleBatches(items(n), 'id', { size: batchSize }),
      async (batch) => {
        await ok(paced(`/read?n=${batch.length}`));
        return new Map(batch.map((item) => [item.id, { id: item.id }]));
      },
      (item) => ok(paced(`/write/${item.id}`)),
      { concurrency: 5, describe: describeFailure, now: clock.now, sleep: clock.sleep },
    );
  }

  it('reads each batch in one request right before its writes, at most 5 writes in flight', async () => {
    const clock = virtualClock();
    const service = fakeService(clock, { quota: 1_000, windowSeconds: 1, headers: true });
    const outcomes = await run(service, clock, new RequestBudget({ ...clock }), 25, 10);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const order = service.calls.map((c) => (c.url.startsWith('/read') ? 'read' : 'w'));
    expect(order.filter((o) => o === 'read')).toHaveLength(3);
    expect(order.indexOf('read', 1)).toBe(11);
    expect(order.indexOf('read', 12)).toBe(22);
    expect(service.peak()).toBe(5);
  });

  it('counts the batch reads in the pacing', async () => {
    const clock = virtualClock();
    // No headers: the run paces by the assumed policy, 10 per second here, no reserve.
    const service = fakeService(clock, {
      quota: 1_000,
      windowSeconds: 1,
      headers: false,
      roundTripMs: 0,
    });
    const budget = new RequestBudget({ quota: 10, windowSeconds: 1, reserveShare: 0, ...clock });
    await run(service, clock, budget, 18, 9);
    // 20 requests (2 reads + 18 writes): 10 at once, then one per 100 ms.
    const starts = service.calls.map((c) => c.at);
    expect(starts).toHaveLength(20);
    expect(starts.slice(0, 10).every((t) => t === 0)).toBe(true);
    expect(starts.at(-1)).toBe(1_000);
    expect(service.calls[10]?.url).toBe('/read?n=9');
  });

  it("follows the service's RateLimit headers: no 429 under a tighter limit than assumed", async () => {
    const clock = virtualClock();
    // The service allows 20 per 2 s, the run assumes 100 per 5 s until it hears otherwise.
    const service = fakeService(clock, { quota: 20, windowSeconds: 2, headers: true });
    const outcomes = await run(service, clock, new RequestBudget({ ...clock }), 100);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(100);
    expect(service.tooMany()).toBe(0);
  });

  it('without headers the same tighter service refuses, and Retry-After brings the run through', async () => {
    const clock = virtualClock();
    const service = fakeService(clock, { quota: 20, windowSeconds: 2, headers: false });
    const outcomes = await run(service, clock, new RequestBudget({ ...clock }), 100);
    expect(service.tooMany()).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(100);
    // Once the first 429 was answered (10 ms after it was sent), nothing was sent for the
    // second it asked for.
    const refused = service.calls.find((c) => c.status === 429);
    const answeredAt = (refused?.at ?? 0) + 10;
    const after = service.calls.filter((c) => c.at > answeredAt).map((c) => c.at);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(answeredAt + 1_000);
  });

  it('settles a batch whose read fails with its reason, and the other batches still run', async () => {
    const clock = virtualClock();
    const written: string[] = [];
    const outcomes = await runInBatches(
      handleBatches(items(4), 'id', { size: 2 }),
      async (batch) => {
        if (batch[0]?.id === 'SUP-1') throw new Refused(403);
        return new Map(batch.map((item) => [item.id, item]));
      },
      async (item, latest) => {
        written.push(`${item.id}:${latest ? 'fresh' : 'none'}`);
      },
      { concurrency: 5, describe: describeError, ...clock },
    );
    expect(written).toEqual(['SUP-3:fresh', 'SUP-4:fresh']);
    expect(outcomes.slice(0, 2)).toEqual([
      {
        id: 'SUP-1',
        ok: false,
        attempts: 1,
        reason: 'Could not be read again: refused 403',
        status: 403,
      },
      {
        id: 'SUP-2',
        ok: false,
        attempts: 1,
        reason: 'Could not be read again: refused 403',
        status: 403,
      },
    ]);
  });

  it('gives a record the read did not return no fresh copy, and cancels what an abort leaves', async () => {
    const controller = new AbortController();
    const latestSeen: Array<string | undefined> = [];
    const outcomes = await runInBatches(
      handleBatches(items(4), 'id', { size: 2 }),
      async () => new Map([['SUP-1', { id: 'SUP-1' }]]),
      async (_item, latest) => {
        latestSeen.push(latest?.id);
        controller.abort();
      },
      { concurrency: 1, describe: describeError, signal: controller.signal },
    );
    expect(latestSeen).toEqual(['SUP-1']);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.reason))).toEqual([
      'ok',
      'Cancelled',
      'Cancelled',
      'Cancelled',
    ]);
  });
});
