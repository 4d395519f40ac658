// Work that should happen soon but never in the way of what the user is waiting for: the next
// idle period of the page (requestIdleCallback), or a short timer where the browser has none.

/** Longest wait for an idle period before the work runs anyway. */
const IDLE_TIMEOUT_MS = 2_000;

/** Timer used where the browser has no requestIdleCallback (Safari). */
const FALLBACK_DELAY_MS = 200;

/**
 * Runs `work` once the page is idle (at the latest after two seconds); returns the cancel, for
 * an effect's cleanup.
 *
 * @example
 * useEffect(() => whenIdle(() => void router.loadRouteChunk(panelRoute)), [router]);
 */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, FALLBACK_DELAY_MS);
  return () => clearTimeout(timer);
}
