// One measured user action of the `remote` benchmark: the paint probe in Chromium for what the
// user sees, and the delay link's log for what it cost upstream.
import type { Page } from 'playwright-core';

import type { DelayLink, UpstreamRequest } from './delay-link.ts';
import type { ProbeArm } from './paint-probe.ts';
import type { UpstreamSummary } from './upstream-requests.ts';
import { armProbe, readProbe } from './paint-probe.ts';
import { summarizeUpstream } from './upstream-requests.ts';

export type ActionSample = {
  shownMs: number;
  confirmedMs: number | undefined;
  upstream: UpstreamSummary;
  /** The requests themselves (for counts the caller narrows, such as one record's). */
  requests: UpstreamRequest[];
  /** TCP connections the BFF opened to the upstream during the action. */
  newConnections: number;
};

/** Where the actions run: a signed-in page and the link under it. */
export type ActionContext = {
  page: Page;
  link: DelayLink;
  /** Samples per action. */
  runs: number;
  log: (message: string) => void;
};

/** Quiet upstream before an action starts and after it ends (its follow-up reads included). */
export const SETTLE_MS = 300;

/**
 * Arms the probe, performs the action, waits for it to show (and be confirmed), then for the
 * upstream to fall quiet, and returns the sample with the upstream requests made meanwhile.
 *
 * @example
 * const sample = await measureAction(ctx, { event: 'keydown', key: 'j', shown }, () => page.keyboard.press('j'));
 */
export async function measureAction(
  ctx: Pick<ActionContext, 'page' | 'link'>,
  arm: ProbeArm,
  act: () => Promise<void>,
  options: { timeoutMs?: number; settleMs?: number } = {},
): Promise<ActionSample> {
  const { page, link } = ctx;
  await link.quiet(options.settleMs ?? SETTLE_MS);
  const from = link.log.length;
  const connections = link.connections();
  await armProbe(page, arm);
  await act();
  const probe = await readProbe(page, options.timeoutMs ?? 30_000);
  await link.quiet(SETTLE_MS);
  const requests = link.log.slice(from);
  return {
    shownMs: probe.shownMs,
    confirmedMs: probe.confirmedMs,
    upstream: summarizeUpstream(requests),
    requests,
    newConnections: link.connections() - connections,
  };
}

/**
 * A string as a RegExp matching exactly it.
 *
 * @example
 * exactly('On Hold'); // '^On Hold$'
 */
export function exactly(text: string): string {
  return `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}
