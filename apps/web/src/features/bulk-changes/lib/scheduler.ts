// The bulk-change scheduler: runs one request per item with a bounded number in flight, optionally
// paced to a steady rate, and backs off for everyone when the API answers 429 (honouring
// Retry-After); a run reads its records again batch by batch before writing them
// (runInBatches). Pure apart from the injected clock and sleep, so tests drive time themselves.

export type BulkOutcome =
  | { id: string; ok: true; attempts: number }
  | { id: string; ok: false; attempts: number; reason: string; status?: number | undefined };

export interface SchedulerOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Least time between two request starts (the pace), in ms; 0 for none. */
  minIntervalMs?: number;
  /** Attempts per item when rate limited (429). Other failures are not retried here. */
  maxAttempts?: number;
  /** Back-off when a 429 carries no Retry-After: doubled per attempt, starting here (ms). */
  baseBackoffMs?: number;
  /** Ceiling of any wait, Retry-After included (ms). */
  maxBackoffMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called as each item settles, in completion order. */
  onOutcome?: (outcome: BulkOutcome) => void;
}

/** What a worker's failure tells the scheduler. */
export interface FailureInfo {
  status?: number | undefined;
  /** Seconds, from Retry-After. */
  retryAfter?: number | undefined;
  reason: string;
}

/**
 * Sleeps `ms` (resolves early, without error, on abort).
 *
 * @example
 * await sleep(250);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `worker` for every item: at most `concurrency` at once, starts paced by `minIntervalMs`.
 * A 429 pauses every worker until its Retry-After has passed (or an exponential back-off when it
 * has none), then retries that item, up to `maxAttempts`. Other failures settle the item as
 * failed with a reason. Aborting stops new starts; items not started settle as "Cancelled".
 *
 * @example
 * const outcomes = await runBulk(
 *   ids,
 *   (id) => api.updateRecord('apps', 'support-tickets', id, { Status: 'Open' }),
 *   { concurrency: 4, minIntervalMs: 60, describe: toFailureInfo },
 * );
 */
export async function runBulk<T extends { id: string }>(
  items: readonly T[],
  worker: (item: T, signal: AbortSignal | undefined) => Promise<unknown>,
  options: SchedulerOptions & { describe: (error: unknown) => FailureInfo },
): Promise<BulkOutcome[]> {
  const {
    concurrency,
    minIntervalMs = 0,
    maxAttempts = 6,
    baseBackoffMs = 1_000,
    maxBackoffMs = 60_000,
    signal,
    now = Date.now,
    sleep: wait = sleep,
    onOutcome,
    describe,
  } = options;
  const queue = items.map((item) => ({ item, attempts: 0 }));
  const outcomes: BulkOutcome[] = [];
  let pausedUntil = 0;
  let nextStart = 0;

  const settle = (outcome: BulkOutcome) => {
    outcomes.push(outcome);
    onOutcome?.(outcome);
  };

  /** Waits for the shared pause and the pace; returns false when aborted meanwhile. */
  const gate = async (): Promise<boolean> => {
    for (;;) {
      if (signal?.aborted) return false;
      const t = now();
      const ready = Math.max(pausedUntil, nextStart);
      if (t >= ready) {
        nextStart = t + minIntervalMs;
        return true;
      }
      await wait(ready - t, signal);
    }
  };

  const lane = async () => {
    for (;;) {
      const next = queue.shift();
      if (!next) return;
      if (!(await gate())) {
        settle({ id: next.item.id, ok: false, attempts: next.attempts, reason: 'Cancelled' });
        continue;
      }
      next.attempts++;
      try {
        await worker(next.item, signal);
        settle({ id: next.item.id, ok: true, attempts: next.attempts });
      } catch (error) {
        const info = describe(error);
        if (info.status === 429 && next.attempts < maxAttempts && !signal?.aborted) {
          const backoff =
            info.retryAfter !== undefined
              ? info.retryAfter * 1_000
              : baseBackoffMs * 2 ** (next.attempts - 1);
          pausedUntil = Math.max(pausedUntil, now() + Math.min(backoff, maxBackoffMs));
          // Back to the front: it keeps its place in line.
          queue.unshift(next);
          continue;
        }
        settle({
          id: next.item.id,
          ok: false,
          attempts: next.attempts,
          reason: info.reason,
          status: info.status,
        });
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  return outcomes;
}

/** How a batch's read ended: what it found, or why its items cannot be written. */
type BatchRead<L> =
  | { ok: true; latest: ReadonlyMap<string, L> }
  | { ok: false; attempts: number; info: FailureInfo | undefined };

/**
 * Reads one batch, retrying a 429 after its Retry-After (or a doubling back-off) up to
 * `maxAttempts`; `info` undefined means aborted.
 */
async function readBatch<T, L>(
  batch: readonly T[],
  read: (batch: readonly T[], signal: AbortSignal | undefined) => Promise<ReadonlyMap<string, L>>,
  options: SchedulerOptions & { describe: (error: unknown) => FailureInfo },
): Promise<BatchRead<L>> {
  const { signal, maxAttempts = 6, baseBackoffMs = 1_000, maxBackoffMs = 60_000 } = options;
  const wait = options.sleep ?? sleep;
  for (let attempts = 1; ; attempts++) {
    if (signal?.aborted) return { ok: false, attempts: attempts - 1, info: undefined };
    try {
      return { ok: true, latest: await read(batch, signal) };
    } catch (error) {
      if (signal?.aborted) return { ok: false, attempts, info: undefined };
      const info = options.describe(error);
      if (info.status !== 429 || attempts >= maxAttempts) return { ok: false, attempts, info };
      const backoff =
        info.retryAfter !== undefined
          ? info.retryAfter * 1_000
          : baseBackoffMs * 2 ** (attempts - 1);
      await wait(Math.min(backoff, maxBackoffMs), signal);
    }
  }
}

/**
 * Runs a bulk change batch by batch: each batch is read again in one request (`read`, which
 * maps handles to the records as stored now) right before its writes, then written with
 * {@link runBulk} (`write` gets each item's fresh record, undefined when the read did not return
 * it). A batch whose read fails settles all its items with the read's reason; after an abort the
 * rest settle as "Cancelled". Pacing belongs to the requests themselves (paced-fetch.ts), so the
 * reads count as much as the writes.
 *
 * @example
 * const outcomes = await runInBatches(
 *   handleBatches(items, 'id'),
 *   (batch, signal) => readLatest(client, tickets, batch, signal),
 *   (item, latest, signal) => writeRecord(client, tickets, item, latest, changes, { signal }),
 *   { concurrency: 5, describe: toFailureInfo },
 * );
 */
export async function runInBatches<T extends { id: string }, L>(
  batches: ReadonlyArray<readonly T[]>,
  read: (batch: readonly T[], signal: AbortSignal | undefined) => Promise<ReadonlyMap<string, L>>,
  write: (item: T, latest: L | undefined, signal: AbortSignal | undefined) => Promise<unknown>,
  options: SchedulerOptions & { describe: (error: unknown) => FailureInfo },
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  const settle = (outcome: BulkOutcome) => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };
  for (const batch of batches) {
    const fresh = await readBatch(batch, read, options);
    if (!fresh.ok) {
      const reason = fresh.info ? `Could not be read again: ${fresh.info.reason}` : 'Cancelled';
      for (const item of batch) {
        settle({
          id: item.id,
          ok: false,
          attempts: fresh.info ? fresh.attempts : 0,
          reason,
          status: fresh.info?.status,
        });
      }
      continue;
    }
    await runBulk(batch, (item, signal) => write(item, fresh.latest.get(item.id), signal), {
      ...options,
      onOutcome: settle,
    });
  }
  return outcomes;
}
