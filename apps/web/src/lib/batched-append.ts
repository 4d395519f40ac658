// Items that arrive one by one (a bulk run's outcomes, one per record), handed on in batches: at
// most one hand-over per interval, and whatever is left at once on `flush`. Each hand-over is a
// render of everything that shows them, so a run of 100 records renders its progress ~30 times
// instead of 100 (issue 27: the browser's share of a bulk run).

export type BatchedAppend<T> = {
  /** Keeps `item`; handed over with the others at the end of the interval. */
  push: (item: T) => void;
  /** Hands over what is kept now (nothing when nothing is). */
  flush: () => void;
};

/**
 * @example
 * const incoming = batchedAppend<Outcome>((items) => setOutcomes((c) => [...c, ...items]), 100);
 * await run({ onOutcome: incoming.push });
 * incoming.flush();
 */
export function batchedAppend<T>(
  handOver: (items: T[]) => void,
  intervalMs: number,
  timers: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  } = {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): BatchedAppend<T> {
  let kept: T[] = [];
  let timer: unknown;
  const flush = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    if (kept.length === 0) return;
    const items = kept;
    kept = [];
    handOver(items);
  };
  return {
    push(item) {
      kept.push(item);
      timer ??= timers.setTimeout(flush, intervalMs);
    },
    flush,
  };
}
