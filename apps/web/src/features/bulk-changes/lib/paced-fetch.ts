// The fetch a bulk run's API client uses: every request waits for the run's RequestBudget, and
// every reply tells it what the service said (RateLimit headers, a 429's Retry-After). Putting
// the pacing here, under the typed client, is what makes every request count: the batched
// re-reads as much as the writes, and retries too.
import { parseRetryAfter } from '@wsc/api-client';

import type { RequestBudget } from './request-budget.ts';
import { parseRateLimit } from './rate-limit-headers.ts';

/** Upstream requests one request of the console costs (ADR 0030: one, the BFF reads from its copies). */
export const UPSTREAM_COST = 1;

/** The error fetch throws for an aborted request. */
function abortError(): DOMException {
  return new DOMException('The request was aborted', 'AbortError');
}

/**
 * `fetch` paced by `budget`: waits for room before sending, and reports each answer.
 *
 * @example
 * const client = apiWith(pacedFetch(new RequestBudget()));
 */
export function pacedFetch(
  budget: RequestBudget,
  base: typeof fetch = (input, init) => globalThis.fetch(input, init),
  cost = UPSTREAM_COST,
): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    if (!(await budget.acquire(cost, signal))) throw abortError();
    let response: Response | undefined;
    try {
      response = await base(input, init);
      return response;
    } finally {
      const headers = response?.headers;
      budget.settle(cost, headers ? parseRateLimit((name) => headers.get(name)) : undefined);
      if (response?.status === 429) budget.pause(parseRetryAfter(headers?.get('retry-after')));
    }
  };
}
