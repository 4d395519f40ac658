// A fault-injecting stand-in for the workspace API on a real loopback port (node:http), so the
// BFF's real fetch, sockets and streams are exercised. Every request is recorded.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = 'client-1';
export const CLIENT_SECRET = 'S3cr3t-Value-Never-Logged-0123456789';

export const ME = {
  id: '6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f11',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  jobTitle: 'Admin',
  status: 'ACTIVE',
  role: 'ADMIN',
} as const;

export type Recorded = {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bytes: number;
  /** The request body ended normally. */
  completed: boolean;
  /** The connection closed before the body ended (client abort reached upstream). */
  abortedAt: number | undefined;
  startedAt: number;
};

/** A handler for `/v1/*` (except `/v1/me`). `rec` fills in while the body streams. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, rec: Recorded) => void;

export type FakeUpstream = {
  /** The API base, ending in `/v1`. */
  apiUrl: string;
  requests: Recorded[];
  /** Requests other than the token endpoint. */
  apiRequests(): Recorded[];
  tokenCalls: number;
  issued: string[];
  tokenDelayMs: number;
  tokenTtlSeconds: number;
  /** Status the token endpoint answers with instead of issuing (e.g. 503, 429). */
  tokenFailure: number | undefined;
  route: RouteHandler;
  /** Make every issued token invalid (the next API call with it gets 401). */
  revokeTokens(): void;
  reset(): void;
  close(): Promise<void>;
};

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The default `/v1/*` route: echo what arrived as JSON (minus the token: read it from `requests`). */
export const echoRoute: RouteHandler = (req, res, rec) => {
  const { authorization: _token, ...headers } = req.headers;
  req.on('end', () =>
    json(res, 200, { method: req.method, url: req.url, headers, bytes: rec.bytes }),
  );
};

/**
 * Start a fake upstream.
 *
 * @example
 * const upstream = await startFakeUpstream();
 * upstream.route = (req, res) => { res.writeHead(503); res.end(); };
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const valid = new Set<string>();
  const state: FakeUpstream = {
    apiUrl: '',
    requests: [],
    apiRequests: () => state.requests.filter((r) => !r.url.startsWith('/oauth/')),
    tokenCalls: 0,
    issued: [],
    tokenDelayMs: 0,
    tokenTtlSeconds: 3600,
    tokenFailure: undefined,
    route: echoRoute,
    revokeTokens: () => valid.clear(),
    reset() {
      state.requests.length = 0;
      state.tokenCalls = 0;
      state.tokenDelayMs = 0;
      state.tokenTtlSeconds = 3600;
      state.tokenFailure = undefined;
      state.route = echoRoute;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createServer((req, res) => {
    const rec: Recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bytes: 0,
      completed: false,
      abortedAt: undefined,
      startedAt: Date.now(),
    };
    state.requests.push(rec);
    req.on('data', (chunk: Buffer) => {
      rec.bytes += chunk.length;
    });
    req.on('end', () => {
      rec.completed = true;
    });
    req.on('close', () => {
      if (!rec.completed) rec.abortedAt = Date.now();
    });

    if (rec.url === '/oauth/token') {
      state.tokenCalls++;
      req.resume();
      req.on('end', () => {
        const reply = () => {
          if (state.tokenFailure !== undefined) {
            json(
              res,
              state.tokenFailure,
              { error: 'temporarily_unavailable' },
              { 'retry-after': '7' },
            );
            return;
          }
          const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
          const [id, secret] = Buffer.from(basic, 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent);
          if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
            json(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic' });
            return;
          }
          const token = `tok-${state.issued.length + 1}-${Math.random().toString(36).slice(2)}`;
          state.issued.push(token);
          valid.add(token);
          json(
            res,
            200,
            { access_token: token, token_type: 'Bearer', expires_in: state.tokenTtlSeconds },
            { 'cache-control': 'no-store' },
          );
        };
        if (state.tokenDelayMs > 0) setTimeout(reply, state.tokenDelayMs);
        else reply();
      });
      return;
    }

    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(bearer)) {
      req.resume();
      json(
        res,
        401,
        { type: 'about:blank', title: 'Unauthorized', status: 401 },
        { 'www-authenticate': 'Bearer' },
      );
      return;
    }
    if (rec.url === '/v1/me') {
      req.resume();
      json(res, 200, ME);
      return;
    }
    state.route(req, res, rec);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
