// The lists that watch their first page (the records table, the triage queue), by definition, so
// that news of a change (the BFF's `record-changed` events) can make them look at once instead of
// at the next poll. Kept tiny and free of imports: whatever delivers those events may live in the
// first load (ADR 0025).

/** The checks of the mounted live lists, by `recordType/alias`. */
const watchers = new Map<string, Set<() => void>>();

const keyOf = (recordType: string, alias: string) => `${recordType}/${alias}`;

/** Definitions whose news is held (a bulk run of this tab is writing them), with how many holds. */
const held = new Map<string, number>();

/**
 * Registers a mounted list's immediate check; returns the unregister. At most one per mounted
 * list, dropped when it unmounts, so the registry does not grow with time.
 *
 * @example
 * useEffect(() => watchLiveQueue('apps', 'support-tickets', poll.checkNow), [poll]);
 */
export function watchLiveQueue(recordType: string, alias: string, check: () => void): () => void {
  const key = keyOf(recordType, alias);
  const set = watchers.get(key) ?? new Set();
  set.add(check);
  watchers.set(key, set);
  return () => {
    set.delete(check);
    if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
  };
}

/**
 * Makes every mounted list of a definition poll its first page now (each coalesces with a poll
 * already in flight; a hidden tab waits until it is shown). Call it when the console learns that
 * a record of that definition was created or changed. Returns how many lists were asked.
 *
 * @example
 * checkLiveQueueNow('apps', 'support-tickets');
 */
export function checkLiveQueueNow(recordType: string, alias: string): number {
  if (isLiveQueueHeld(recordType, alias)) return 0;
  const set = watchers.get(keyOf(recordType, alias));
  for (const check of set ?? []) check();
  return set?.size ?? 0;
}

/** Whether a definition's lists are held ({@link holdLiveQueue}): their own poll skips its ticks. */
export function isLiveQueueHeld(recordType: string, alias: string): boolean {
  return held.has(keyOf(recordType, alias));
}

/**
 * Holds the checks of a definition's lists until the returned release is called (idempotent;
 * holds nest): news-triggered ones, and the lists' own poll ({@link isLiveQueueHeld}). A bulk run
 * holds its definition: each of its own writes comes back as news, and a re-read of the list per
 * couple of seconds (or per poll, in a run longer than its interval) would spend the service's
 * rate limit and the machine on a page the run refreshes when it ends anyway.
 *
 * @example
 * const release = holdLiveQueue('apps', 'support-tickets');
 * try { await run(); } finally { release(); }
 */
export function holdLiveQueue(recordType: string, alias: string): () => void {
  const key = keyOf(recordType, alias);
  held.set(key, (held.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (held.get(key) ?? 1) - 1;
    if (left > 0) held.set(key, left);
    else held.delete(key);
  };
}
