// INP-style timing of one user action in the console, measured inside Chromium: from the input
// event's timestamp (captured before the app's own listeners) to the first animation frame in
// which the page shows what the action should show, and (for writes) to the first frame after
// the browser has the server's answer to every write the action started. What "shown" means is
// data (a CSS selector over roles, labels and attributes, and a text pattern), so the probe
// follows the console as it changes.
import type { BrowserContext, Page } from 'playwright-core';

/** What the page shows when the action has taken effect. */
export type Shown = {
  /** An element matching this selector... */
  selector: string;
  /** ...whose text matches this pattern (RegExp source; any text when absent)... */
  pattern?: string;
  /** ...and whose text does not match this one... */
  notPattern?: string;
  /** ...while nothing matches this selector (a spinner, a skeleton). */
  absent?: string;
};

export type ProbeArm = {
  /** The input event that starts the clock: `keydown` (of `key` when given) or `click`. */
  event: 'keydown' | 'click';
  key?: string;
  shown: Shown;
  /** Also time the first frame after every write (PUT/POST/DELETE to /api/) since the event settled. */
  confirm?: boolean;
};

export type ProbeResult = {
  /** Event -> first frame showing it. */
  shownMs: number;
  /** Event -> first frame after the writes' answers (when `confirm`). */
  confirmedMs: number | undefined;
  /** Writes the action sent to the BFF's /api/ (the browser's side of the count). */
  writes: number;
};

/**
 * Installed before any app code: wraps fetch to note every write to `/api/` (start and end),
 * which the probe uses for "confirmed".
 */
const INIT = `(() => {
  const probe = { writes: [], listeners: new Set() };
  window.__probe = probe;
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const method = String(init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (method === 'GET' || method === 'HEAD' || !String(url).includes('/api/')) return original(input, init);
    const entry = { start: performance.now(), end: null };
    probe.writes.push(entry);
    try {
      return await original(input, init);
    } finally {
      entry.end = performance.now();
      for (const listener of probe.listeners) listener();
    }
  };
})()`;

/**
 * Installs the probe's fetch wrapper in every page of a context (before the app's scripts).
 *
 * @example
 * await installProbe(context);
 */
export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: INIT });
}

/**
 * Arms one measurement; the next matching input event starts the clock. Call, then act (press
 * the key, click), then {@link readProbe}.
 *
 * @example
 * await armProbe(page, { event: 'keydown', key: '2', shown: { selector: '[role="group"][aria-label="Status"] [aria-pressed="true"]', pattern: 'Open$' } });
 * await page.keyboard.press('2');
 * const { shownMs } = await readProbe(page);
 */
export async function armProbe(page: Page, arm: ProbeArm): Promise<void> {
  await page.evaluate(`(${ARM})(${JSON.stringify(arm)})`);
}

/**
 * The page side of {@link armProbe}, as source text: functions handed to page.evaluate would
 * carry the bundler's helpers (`__name`), which the page does not have.
 */
const ARM = `(spec) => {
  const probe = window.__probe;
  const state = {
    eventAt: null, shownAt: null, confirmedAt: null,
    shownPending: false, confirmPending: false, confirm: spec.confirm === true, writes: 0,
  };
  probe.state = state;
  const pattern = spec.shown.pattern === undefined ? null : new RegExp(spec.shown.pattern);
  const notPattern = spec.shown.notPattern === undefined ? null : new RegExp(spec.shown.notPattern);
  const shows = () => {
    if (spec.shown.absent && document.querySelector(spec.shown.absent)) return false;
    for (const element of document.querySelectorAll(spec.shown.selector)) {
      const text = element.textContent || '';
      if (pattern && !pattern.test(text)) continue;
      if (notPattern && notPattern.test(text)) continue;
      return true;
    }
    return false;
  };
  const writesSettled = () => {
    const mine = probe.writes.filter((w) => state.eventAt !== null && w.start >= state.eventAt);
    state.writes = mine.length;
    return mine.length > 0 && mine.every((w) => w.end !== null);
  };
  const stamp = (key, pending) => {
    state[pending] = true;
    requestAnimationFrame(() => { state[key] = performance.now(); });
  };
  const check = () => {
    if (state.eventAt === null) return;
    const visible = shows();
    if (!state.shownPending && visible) stamp('shownAt', 'shownPending');
    if (state.confirm && !state.confirmPending && visible && writesSettled()) stamp('confirmedAt', 'confirmPending');
    if (state.shownPending && (!state.confirm || state.confirmPending)) {
      observer.disconnect();
      probe.listeners.delete(check);
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  probe.listeners.add(check);
  const onEvent = (event) => {
    if (spec.key !== undefined && event.key !== spec.key) return;
    window.removeEventListener(spec.event, onEvent, { capture: true });
    state.eventAt = event.timeStamp;
    // The app may change nothing in the DOM (already shown): look once after it ran.
    setTimeout(check, 0);
  };
  window.addEventListener(spec.event, onEvent, { capture: true });
}`;

/**
 * Waits for the armed measurement to complete and returns it.
 *
 * @example
 * const { shownMs, confirmedMs } = await readProbe(page, 60_000);
 */
export async function readProbe(page: Page, timeoutMs = 30_000): Promise<ProbeResult> {
  await page.waitForFunction(
    () =>
      (window as unknown as { __probe: { state: { shownAt: number | null } } }).__probe.state
        .shownAt !== null,
    undefined,
    { timeout: timeoutMs, polling: 50 },
  );
  return (await page.evaluate(`(async (timeout) => {
    const state = window.__probe.state;
    const deadline = performance.now() + timeout;
    // "Confirmed" comes later than "shown" when the screen does not wait for the write.
    while (state.confirm && state.confirmedAt === null && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return {
      shownMs: state.shownAt - state.eventAt,
      confirmedMs: state.confirmedAt === null ? undefined : state.confirmedAt - state.eventAt,
      writes: state.writes,
    };
  })(${timeoutMs})`)) as ProbeResult;
}
