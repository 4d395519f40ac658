// A virtual clock for the scheduler's tests: `sleep` registers a timer, and once every waiter is
// asleep (a macrotask later) time jumps to the earliest timer. Several lanes may sleep at once.

/**
 * A clock whose time only moves when everyone waits.
 *
 * @example
 * const clock = virtualClock();
 * await runBulk(items, worker, { ...options, now: clock.now, sleep: clock.sleep });
 */
export function virtualClock() {
  let t = 0;
  let timers: Array<{ at: number; resolve: () => void }> = [];
  let scheduled = false;
  const advance = () => {
    scheduled = false;
    if (timers.length === 0) return;
    t = Math.max(t, Math.min(...timers.map((timer) => timer.at)));
    const due = timers.filter((timer) => timer.at <= t);
    timers = timers.filter((timer) => timer.at > t);
    for (const timer of due) timer.resolve();
    if (timers.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(advance, 0);
  };
  return {
    now: () => t,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve) => {
        if (ms <= 0 || signal?.aborted) return resolve();
        timers.push({ at: t + ms, resolve });
        signal?.addEventListener('abort', () => resolve(), { once: true });
        schedule();
      }),
  };
}
