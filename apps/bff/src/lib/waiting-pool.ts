// A small pool per key (a region) that makes work wait its turn instead of refusing it: captured
// writes hold their body, the record before and the reply in memory, so only a few run at once
// per region; the others wait, holding nothing but their place (their bodies stay unread in the
// socket). The proxy's in-flight caps already bound how many can wait.

/** A taken place. `release` is idempotent, so every exit path may call it. */
export type PoolSlot = { release(): void };

export type WaitingPool = {
  /**
   * A place under `key`, at once when one is free, else when one is released (first come, first
   * served). Rejects with the signal's reason when it aborts while waiting.
   */
  acquire(key: string, signal?: AbortSignal): Promise<PoolSlot>;
  /** Places taken under `key`, and requests waiting for one. */
  usage(key: string): { held: number; waiting: number };
};

type Waiter = { grant: () => void };

/**
 * The pool, with at most `size` places taken per key.
 *
 * @example
 * const pool = createWaitingPool(8);
 * const slot = await pool.acquire(`region:${session.region}`, request.signal);
 * try { await capturedWrite(); } finally { slot.release(); }
 */
export function createWaitingPool(size: number): WaitingPool {
  const held = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();

  /** A slot for a place already counted under `key`. */
  const slotFor = (key: string): PoolSlot => {
    let taken = true;
    return {
      release() {
        if (!taken) return;
        taken = false;
        const next = queues.get(key)?.shift();
        if (queues.get(key)?.length === 0) queues.delete(key);
        // The place passes straight to the next in line; the count does not move.
        if (next) return next.grant();
        const left = (held.get(key) ?? 1) - 1;
        if (left <= 0) held.delete(key);
        else held.set(key, left);
      },
    };
  };

  return {
    acquire(key, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      if ((held.get(key) ?? 0) < size) {
        held.set(key, (held.get(key) ?? 0) + 1);
        return Promise.resolve(slotFor(key));
      }
      return new Promise<PoolSlot>((resolve, reject) => {
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(slotFor(key));
          },
        };
        const onAbort = () => {
          const queue = queues.get(key) ?? [];
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          if (queue.length === 0) queues.delete(key);
          reject(signal?.reason as Error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(key) ?? [];
        queue.push(waiter);
        queues.set(key, queue);
      });
    },
    usage(key) {
      return { held: held.get(key) ?? 0, waiting: queues.get(key)?.length ?? 0 };
    },
  };
}
