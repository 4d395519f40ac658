// The request log: one line per request at debug, under the caller's X-Request-Id (the BFF sends
// its own), with the field names of the BFF's log; never the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';
import { createLogger } from './logger.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

function captureAt(level: 'debug' | 'info') {
  const lines: string[] = [];
  h.deps.logger = createLogger({ level, output: (line) => lines.push(line) });
  return lines;
}

describe('request log', () => {
  it('logs each request at debug under the caller’s X-Request-Id, as the BFF names its fields', async () => {
    const lines = captureAt('debug');
    const res = await h.request('GET', '/v1/me', {
      token: h.tokens.member,
      headers: { 'X-Request-Id': 'console-action-7' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Request-Id')).toBe('console-action-7');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual({
      level: 'debug',
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      msg: 'request',
      requestId: 'console-action-7',
      method: 'GET',
      path: '/v1/me',
      status: 200,
      durationMs: expect.any(Number),
    });
    expect(lines.join('\n')).not.toContain(h.tokens.member);
  });

  it('gives a request without an id one of its own, and logs no request line at info', async () => {
    const debugLines = captureAt('debug');
    const res = await h.request('GET', '/v1/me', { token: h.tokens.member });
    const id = res.headers.get('X-Request-Id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(debugLines.join('\n')).toContain(id);
    const infoLines = captureAt('info');
    await h.request('GET', '/v1/me', { token: h.tokens.member });
    expect(infoLines).toEqual([]);
  });
});
