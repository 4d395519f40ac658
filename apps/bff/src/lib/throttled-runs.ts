// At most one run per key per interval, however often it is asked for: the first ask runs at
// once, asks during a run (or within the interval after one started) share one more run at the
// end of the interval. The live hub reads a region's presence again through it, so a burst of
// presence changes costs a few reads a second instead of one read per change (ADR 0027).

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The runner: `ask(key)` resolves once a run that started after the ask has finished. `run`
 * must not throw (catch and log inside).
 *
 * @example
 * const reread = throttledRuns({ intervalMs: 200, run: (region) => readRegion(region) });
 * await reread('default');
 */
export function throttledRuns(options: {
  intervalMs: number;
  run: (key: string) => Promise<void>;
}): (key: string) => Promise<void> {
  const state = new Map<string, { again: boolean; done: Promise<void> }>();
  const lastStart = new Map<string, number>();
  return (key) => {
    const current = state.get(key);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: true, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        while (entry.again) {
          const wait = (lastStart.get(key) ?? Number.NEGATIVE_INFINITY) + options.intervalMs;
          // Timers may fire a fraction of a millisecond early: wait again until the interval is out.
          for (let ms = wait - performance.now(); ms > 0; ms = wait - performance.now()) {
            await sleep(Math.ceil(ms));
          }
          // Asks that came while waiting are answered by this run.
          entry.again = false;
          lastStart.set(key, performance.now());
          await options.run(key);
        }
      } finally {
        state.delete(key);
      }
    })();
    state.set(key, entry);
    return entry.done;
  };
}
