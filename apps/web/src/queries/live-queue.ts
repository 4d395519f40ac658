// The lists that watch their first page (the records table, the triage queue), by definition, so
// that news of a change (the BFF's `record-changed` events) can make them look at once instead of
// at the next poll. Kept tiny and free of imports: whatever delivers those events may live in the
// first load (ADR 0025).

/** The checks of the mounted live lists, by `recordType/alias`. */
const watchers = new Map<string, Set<() => void>>();

const keyOf = (recordType: string, alias: string) => `${recordType}/${alias}`;

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
  const set = watchers.get(keyOf(recordType, alias));
  for (const check of set ?? []) check();
  return set?.size ?? 0;
}
