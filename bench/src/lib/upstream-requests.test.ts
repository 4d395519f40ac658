import { describe, expect, it } from 'vitest';

import type { UpstreamRequest } from './delay-link.ts';
import { chainDepths, requestLabel, summarizeUpstream } from './upstream-requests.ts';

const request = (
  method: string,
  path: string,
  startedAt: number,
  endedAt: number,
  status = 200,
): UpstreamRequest => ({ method, path, startedAt, endedAt, status, connection: 1 });

describe('upstream request summary', () => {
  it('counts overlapping requests as one round and chained ones as several', () => {
    const log = [
      request('POST', '/oauth/token', 0, 80),
      request('GET', '/v1/me', 81, 160),
      request('GET', '/v1/definitions', 82, 170),
      request('GET', '/v1/apps/support-tickets?filter=x&first=100', 171, 260),
    ];
    expect(chainDepths(log)).toEqual([1, 2, 2, 3]);
    const summary = summarizeUpstream(log);
    expect(summary).toMatchObject({ requests: 4, sequential: 3, tooMany: 0 });
    expect(summary.sequence).toBe(
      'POST /oauth/token ; GET /v1/me + GET /v1/definitions ; GET /v1/apps/support-tickets?filter=…',
    );
  });

  it('names record handles generically, collapses repeats and counts 429s', () => {
    const log = [
      request('PUT', '/v1/apps/support-tickets/SUP-1', 0, 10),
      request('PUT', '/v1/apps/support-tickets/SUP-2', 1, 10, 429),
    ];
    expect(requestLabel(log[0] as UpstreamRequest)).toBe('PUT /v1/apps/support-tickets/{id}');
    expect(summarizeUpstream(log)).toMatchObject({
      sequential: 1,
      tooMany: 1,
      sequence: '2x PUT /v1/apps/support-tickets/{id}',
    });
  });

  it('treats a request still streaming as never ended', () => {
    expect(chainDepths([{ startedAt: 0, endedAt: undefined }, { startedAt: 5, endedAt: 6 }])).toEqual([
      1, 1,
    ]);
  });
});
