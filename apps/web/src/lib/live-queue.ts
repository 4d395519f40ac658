// The live queue (ADR 0025): a list polls its own first page now and then and compares it with
// the rows it holds. New records wait behind a "N new" banner until the user merges them; rows
// it holds that changed are updated in place at once. Pure functions and a timer scheduler here;
// the React side is lib/use-live-queue.ts.
import type { RecordData } from '@wsc/api-client';

/** Milliseconds between two polls of a list's first page while the tab is visible. */
export const LIVE_POLL_INTERVAL_MS = 20_000;

/** The least time between the starts of two checks, however many are asked for. */
export const LIVE_MIN_GAP_MS = 2_000;

/** One listed record, as the record search answers it. */
export interface LiveItem {
  cursor?: string | undefined;
  data: RecordData;
}

/** A page of the list's infinite query, as far as the live queue reads and writes it. */
export interface LivePage {
  items: LiveItem[];
  total?: number | undefined;
}

/** What a poll found, against the rows the list holds. */
export interface LiveComparison {
  /** Records the list does not hold that belong among its loaded rows, in the polled order. */
  fresh: LiveItem[];
  /** Held records whose values changed, by id: to be replaced in place. */
  updated: Map<string, RecordData>;
  /**
   * Held records the poll should have returned (they sit within the polled stretch of the list)
   * but did not: they no longer match the view, or moved out of that stretch.
   */
  departed: Set<string>;
}

/** Whether two records hold the same fields with the same values. */
function sameRecord(a: RecordData, b: RecordData): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => a[key] === b[key]);
}

/**
 * Compares a polled first page with the rows the list holds (in the list's order). A polled
 * record the list lacks is fresh when it sorts before the list's last loaded row (it appears in
 * the polled page before that row, or that row is past the polled page), or when the list is
 * `complete` (no page after it: every match belongs in it). A held record with other values is
 * updated. A held record before the last held one the poll returned, and absent from the poll,
 * has departed. Records without an id (`idOf` undefined) are ignored.
 *
 * @example
 * compareWithLoaded(loaded, polled, (r) => r.id, false);
 * // { fresh: [{ data: { id: 'SUP-9', ... } }], updated: Map { 'SUP-2' => {...} }, departed: Set {} }
 */
export function compareWithLoaded(
  loaded: readonly RecordData[],
  polled: readonly LiveItem[],
  idOf: (record: RecordData) => string | undefined,
  complete: boolean,
): LiveComparison {
  const held = new Map<string, RecordData>();
  const heldOrder: string[] = [];
  for (const record of loaded) {
    const id = idOf(record);
    if (id === undefined || held.has(id)) continue;
    held.set(id, record);
    heldOrder.push(id);
  }
  const polledIds = polled.map((item) => idOf(item.data));
  const lastHeld = heldOrder.at(-1);
  const lastHeldAt = lastHeld === undefined ? -1 : polledIds.indexOf(lastHeld);
  // The polled stretch ends at the list's last row when the poll returned it, else it covers
  // the whole poll (the last row lies past it, or vanished).
  const freshBefore = complete || lastHeldAt < 0 ? polled.length : lastHeldAt;

  const fresh: LiveItem[] = [];
  const updated = new Map<string, RecordData>();
  const seen = new Set<string>();
  polled.forEach((item, index) => {
    const id = polledIds[index];
    if (id === undefined || seen.has(id)) return;
    seen.add(id);
    const mine = held.get(id);
    if (mine === undefined) {
      if (index < freshBefore) fresh.push(item);
    } else if (!sameRecord(mine, item.data)) {
      updated.set(id, item.data);
    }
  });

  // Held rows up to the last one the poll returned are in the polled stretch; any of them the
  // poll did not return has left it.
  const departed = new Set<string>();
  let lastReturned = -1;
  heldOrder.forEach((id, index) => {
    if (seen.has(id)) lastReturned = index;
  });
  for (let index = 0; index < lastReturned; index++) {
    const id = heldOrder[index];
    if (id !== undefined && !seen.has(id)) departed.add(id);
  }
  return { fresh, updated, departed };
}

/**
 * The pages with held records replaced by their polled values, at the same positions. Pages and
 * items that did not change keep their identity (so memoized rows do not render again).
 *
 * @example
 * const next = applyUpdates(data.pages, comparison.updated, idOf);
 */
export function applyUpdates<P extends LivePage>(
  pages: readonly P[],
  updated: ReadonlyMap<string, RecordData>,
  idOf: (record: RecordData) => string | undefined,
): P[] {
  if (updated.size === 0) return [...pages];
  return pages.map((page) => {
    let changed = false;
    const items = page.items.map((item) => {
      const id = idOf(item.data);
      const next = id === undefined ? undefined : updated.get(id);
      if (next === undefined) return item;
      changed = true;
      return { ...item, data: next };
    });
    return changed ? { ...page, items } : page;
  });
}

/**
 * The pages with `fresh` records merged in at their sorted positions: each goes right after the
 * nearest record before it in the polled order that the list holds, or first when there is
 * none. Records the list already holds are not added twice. `total` of the first page becomes
 * the poll's, where the poll has one.
 *
 * @example
 * mergeFresh(data.pages, polled.items, comparison.fresh, idOf, polled.total);
 */
export function mergeFresh<P extends LivePage>(
  pages: readonly P[],
  polled: readonly LiveItem[],
  fresh: readonly LiveItem[],
  idOf: (record: RecordData) => string | undefined,
  total?: number | undefined,
): P[] {
  const next = pages.map((page) => ({ ...page, items: [...page.items] }));
  const first = next[0];
  if (first === undefined) return next;
  // Where each held id sits: page and index, kept current as records go in.
  const locate = (id: string): [number, number] | undefined => {
    for (let p = 0; p < next.length; p++) {
      const index = next[p]?.items.findIndex((item) => idOf(item.data) === id) ?? -1;
      if (index >= 0) return [p, index];
    }
    return undefined;
  };
  const polledIds = polled.map((item) => idOf(item.data));
  for (const item of fresh) {
    const id = idOf(item.data);
    if (id === undefined || locate(id) !== undefined) continue;
    const at = polledIds.indexOf(id);
    let placed = false;
    for (let before = at - 1; before >= 0 && !placed; before--) {
      const previous = polledIds[before];
      const where = previous === undefined ? undefined : locate(previous);
      if (where === undefined) continue;
      next[where[0]]?.items.splice(where[1] + 1, 0, item);
      placed = true;
    }
    if (!placed) first.items.unshift(item);
  }
  if (total !== undefined) first.total = total;
  return next;
}

/** What the scheduler needs to know of the page's visibility (the document, in the browser). */
export interface VisibilitySource {
  hidden: () => boolean;
  /** Calls `listener` when visibility changes; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

/** The browser's document as a {@link VisibilitySource}. */
export const documentVisibility: VisibilitySource = {
  hidden: () => document.hidden,
  subscribe: (listener) => {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

export interface LivePoll {
  /**
   * Checks at once (coalesced with one in flight), then waits a full interval again; nothing
   * while the page is hidden.
   */
  checkNow: () => void;
  /** Stops the timer, aborts a check in flight and forgets the visibility listener. */
  stop: () => void;
}

/**
 * Runs `check` every `intervalMs` while the page is visible, one at a time: the next wait starts
 * when a check ends; a check asked for (`checkNow`, the page shown again) runs at once, but never
 * sooner than `minGapMs` after the last one started, and one asked for while one runs is run once
 * after it (never queued more), so a burst of change events costs at most one request per
 * `minGapMs`. The timer stops while the page is hidden, and a tick is skipped while `held`. A
 * failed check is not retried early: the next interval tries again.
 *
 * @example
 * const poll = startLivePoll({ intervalMs: 20_000, check: (signal) => pollFirstPage(signal) });
 * poll.stop();
 */
export function startLivePoll({
  intervalMs,
  minGapMs = LIVE_MIN_GAP_MS,
  check,
  visibility = documentVisibility,
  held = () => false,
}: {
  intervalMs: number;
  minGapMs?: number;
  check: (signal: AbortSignal) => Promise<unknown>;
  visibility?: VisibilitySource;
  /** True while the checks are held (a bulk run is writing the list's records): a tick is skipped. */
  held?: () => boolean;
}): LivePoll {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: AbortController | undefined;
  let again = false;
  let stopped = false;
  let lastStart = Number.NEGATIVE_INFINITY;

  const wait = (ms: number) => {
    clearTimeout(timer);
    timer = stopped || visibility.hidden() ? undefined : setTimeout(run, ms);
  };
  // At once, or as soon as the gap since the last check allows.
  const soon = () => {
    if (stopped || visibility.hidden()) return;
    if (running) {
      again = true;
      return;
    }
    const left = lastStart + minGapMs - Date.now();
    if (left > 0) wait(left);
    else run();
  };
  function run() {
    clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    if (held()) {
      wait(intervalMs);
      return;
    }
    const controller = new AbortController();
    running = controller;
    lastStart = Date.now();
    void check(controller.signal)
      .catch(() => undefined)
      .finally(() => {
        if (running === controller) running = undefined;
        if (again) {
          again = false;
          soon();
        } else {
          wait(intervalMs);
        }
      });
  }
  const unsubscribe = visibility.subscribe(() => {
    if (!visibility.hidden()) return soon();
    clearTimeout(timer);
    timer = undefined;
  });
  wait(intervalMs);
  return {
    // While hidden nothing runs: showing the page again checks at once anyway.
    checkNow: soon,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      running?.abort();
      running = undefined;
      unsubscribe();
    },
  };
}
