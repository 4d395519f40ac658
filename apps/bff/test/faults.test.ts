// A misbehaving upstream, on a raw TCP socket (it sends what no HTTP library would): whatever it
// does, the console gets a clear answer in bounded time, never a hang. Before the response headers:
// 502 or 504 problem+json. After them (a body cut short or stalled): the response ends. The same
// for the sign-in's token call. The randomized, process-level version is `pnpm bench -- faults`.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.ts';
import { regionFor } from '../src/lib/config.ts';
import { SESSION_COOKIE } from '../src/lib/sessions.ts';
import { ME } from './fake-upstream.ts';
import { createHarness } from './harness.ts';

const TIMEOUT_MS = 400;
const IDLE_MS = 400;

type Mode =
  | 'hang'
  | 'reset'
  | 'garbage'
  | 'bad-headers'
  | 'close-early'
  | 'truncated'
  | 'stall-body'
  | 'bad-json';

function reply(socket: net.Socket, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function misbehave(socket: net.Socket, mode: Mode): void {
  const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
  switch (mode) {
    case 'hang':
      return;
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'garbage':
      socket.end('\x00\x01 this is not HTTP \xff\r\n\r\n');
      return;
    case 'bad-headers':
      socket.end('HTTP/1.1 200 OK\r\nContent-Type application/json\r\n\x01: x\r\n\r\n{}');
      return;
    case 'close-early':
      socket.end();
      return;
    case 'truncated':
      socket.end(`${head}{"items":[`);
      return;
    case 'stall-body':
      socket.write(`${head}{"items":[`);
      return;
    case 'bad-json':
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"access_',
      );
      return;
  }
}

/** The fake API: `/oauth/token` and `/v1/me` answer (unless `tokenMode`), `/v1/.../fault-<mode>/...` misbehaves. */
async function startRawUpstream() {
  const sockets = new Set<net.Socket>();
  const state = { tokenMode: undefined as Mode | undefined, url: '' };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let data = Buffer.alloc(0);
    let done = false;
    socket.on('data', (chunk: Buffer) => {
      if (done) return;
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = data.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? '0');
      if (data.length - end - 4 < length) return;
      done = true;
      const target = head.split(' ')[1] ?? '';
      if (target.startsWith('/oauth/token')) {
        if (state.tokenMode) misbehave(socket, state.tokenMode);
        else reply(socket, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      } else if (target.startsWith('/v1/me')) reply(socket, ME);
      else {
        const mode = /\/fault-([a-z-]+)\//.exec(target)?.[1] as Mode | undefined;
        if (mode) misbehave(socket, mode);
        else reply(socket, { ok: true });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  state.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  return {
    state,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let upstream: Awaited<ReturnType<typeof startRawUpstream>>;
let h: Harness;
let cookie: string;

beforeAll(async () => {
  upstream = await startRawUpstream();
  h = await createHarness({
    socket: true,
    config: {
      regions: [regionFor('default', upstream.state.url)],
      upstreamTimeoutMs: TIMEOUT_MS,
      bodyIdleTimeoutMs: IDLE_MS,
      retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 2_000 },
    },
  });
  const login = await h.login();
  expect(login.res.status).toBe(200);
  cookie = login.cookie;
});
afterAll(async () => {
  await h.close();
  await upstream.close();
});

/** Time a promise; fails the test (instead of hanging it) past `boundMs`. */
async function within<T>(boundMs: number, work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const value = await Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${boundMs} ms`)), boundMs);
    }),
  ]).finally(() => clearTimeout(timer));
  return { value, ms: Date.now() - started };
}

async function expectProblem(res: Response, status: number): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(await res.json()).toMatchObject({ status });
}

// GET is retried twice (three attempts, short backoff here); PUT is never retried.
const BOUND = { GET: 3 * TIMEOUT_MS + 1_500, PUT: TIMEOUT_MS + 1_500 } as const;

describe('an upstream that misbehaves before its response headers', () => {
  const cases: Array<[Mode, number]> = [
    ['hang', 504],
    ['reset', 502],
    ['garbage', 502],
    ['bad-headers', 502],
    ['close-early', 502],
  ];
  for (const method of ['GET', 'PUT'] as const) {
    it.each(cases)(`${method}: %s gives %i problem+json in bounded time`, async (mode, status) => {
      const { value: res } = await within(
        BOUND[method],
        h.api(`/api/v1/apps/fault-${mode}/X-1`, {
          cookie,
          method,
          ...(method === 'PUT'
            ? { headers: { 'content-type': 'application/json' }, body: '{"Title":"x"}' }
            : {}),
        }),
      );
      await expectProblem(res, status);
    });
  }
});

describe('an upstream that misbehaves after its response headers', () => {
  it.each(['truncated', 'stall-body'] as const)(
    'GET: %s ends the response (cut off) in bounded time, never a hang',
    async (mode) => {
      const { value: outcome } = await within(
        TIMEOUT_MS + IDLE_MS + 1_500,
        (async () => {
          // Straight fetch: the harness would read a copy of the body itself.
          const res = await fetch(`${await h.listen()}/api/v1/apps/fault-${mode}/X-1`, {
            headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${cookie}` },
          });
          expect(res.status).toBe(200);
          return res.arrayBuffer().then(
            () => 'complete',
            () => 'cut off',
          );
        })(),
      );
      expect(outcome).toBe('cut off');
    },
  );
});

describe('a token endpoint that misbehaves at sign-in', () => {
  const cases: Array<[Mode, number[]]> = [
    ['hang', [504]],
    ['reset', [502]],
    ['garbage', [502]],
    ['bad-headers', [502]],
    ['close-early', [502]],
    ['truncated', [502, 504]],
    ['stall-body', [502, 504]],
    ['bad-json', [502]],
  ];
  it.each(cases)('%s gives %j problem+json in bounded time', async (mode, statuses) => {
    upstream.state.tokenMode = mode;
    try {
      const { value } = await within(3 * TIMEOUT_MS + IDLE_MS + 1_500, h.login());
      expect(statuses).toContain(value.res.status);
      expect(value.res.headers.get('content-type')).toBe('application/problem+json');
      expect(value.setCookie).toBe('');
    } finally {
      upstream.state.tokenMode = undefined;
    }
  });
});

it('logs no unhandled error for any of it', () => {
  expect(h.logs.filter((line) => /unhandled/i.test(line))).toEqual([]);
});
