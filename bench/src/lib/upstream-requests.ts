// What the `remote` benchmark reads from the delay link's request log: how many upstream requests
// an action cost, how many of them had to wait for one another (the round trips the user waits
// for), how many were refused with 429, and their sequence as text for the report.
import type { UpstreamRequest } from './delay-link.ts';

export type UpstreamSummary = {
  requests: number;
  /**
   * The longest chain of requests each started after the previous one ended: the round trips
   * spent one after another (requests that overlap count once).
   */
  sequential: number;
  tooMany: number;
  /** Rounds in order, `;` between rounds, `+` between requests that overlapped. */
  sequence: string;
};

/**
 * Each request's depth in the longest chain of requests that ended before it started (1 for a
 * request nothing finished before).
 *
 * @example
 * chainDepths([{ startedAt: 0, endedAt: 10 }, { startedAt: 12, endedAt: 20 }, { startedAt: 1, endedAt: 9 }]);
 * // [1, 2, 1]
 */
export function chainDepths(
  requests: ReadonlyArray<Pick<UpstreamRequest, 'startedAt' | 'endedAt'>>,
): number[] {
  const order = requests.map((_, index) => index).sort((a, b) => startOf(a) - startOf(b));
  const depths = new Array<number>(requests.length).fill(1);
  function startOf(index: number) {
    return requests[index]?.startedAt ?? 0;
  }
  for (const [position, index] of order.entries()) {
    const start = startOf(index);
    for (const before of order.slice(0, position)) {
      const end = requests[before]?.endedAt ?? Infinity;
      if (end <= start) depths[index] = Math.max(depths[index] ?? 1, (depths[before] ?? 1) + 1);
    }
  }
  return depths;
}

/**
 * A request as the report names it: method and path, a record handle as `{id}`, the query cut
 * to its first parameter's name.
 *
 * @example
 * requestLabel({ method: 'GET', path: '/v1/apps/support-tickets?filter=Status%3D%3DNew&first=100' });
 * // 'GET /v1/apps/support-tickets?filter=…'
 * requestLabel({ method: 'PUT', path: '/v1/apps/support-tickets/SUP-42' }); // 'PUT /v1/apps/support-tickets/{id}'
 */
export function requestLabel(request: Pick<UpstreamRequest, 'method' | 'path'>): string {
  const [pathname = '', query] = request.path.split('?');
  const first = query?.split('&')[0]?.split('=')[0];
  const generic = pathname.replace(/\/[A-Z][A-Z0-9]*-\d+(?=\/|$)/g, '/{id}');
  return `${request.method} ${generic}${first ? `?${first}=…` : ''}`;
}

/**
 * Counts, chain length, 429s and the sequence of the requests an action made.
 *
 * @example
 * summarizeUpstream(link.log.slice(from)).sequential; // 2
 */
export function summarizeUpstream(requests: readonly UpstreamRequest[]): UpstreamSummary {
  const depths = chainDepths(requests);
  const rounds = new Map<number, string[]>();
  requests.forEach((request, index) => {
    const depth = depths[index] ?? 1;
    rounds.set(depth, [...(rounds.get(depth) ?? []), requestLabel(request)]);
  });
  const sequence = [...rounds.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, labels]) => collapse(labels))
    .join(' ; ');
  return {
    requests: requests.length,
    sequential: Math.max(0, ...depths),
    tooMany: requests.filter((request) => request.status === 429).length,
    sequence,
  };
}

/** `A + A + B` -> `2x A + B`: a bulk run's hundred PUTs stay one line. */
function collapse(labels: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts.entries()]
    .map(([label, count]) => (count > 1 ? `${count}x ${label}` : label))
    .join(' + ');
}
