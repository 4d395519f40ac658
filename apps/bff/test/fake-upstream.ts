// A fault-injecting stand-in for the workspace API on a real loopback port (node:http), so the
// BFF's real fetch, sockets and streams are exercised. Every request is recorded. Two modes:
// `extended` (our API: `/v1/me`, token 200 from form + Basic) and `hosted` (the published
// contract only: no `/v1/me`, token 201 from a JSON body only, tolerant reply shapes).
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

/** A second credential the fake accepts (e.g. another person in the owner-id tests). */
export const OTHER_CLIENT_ID = 'client-2';
export const OTHER_CLIENT_SECRET = 'Other-S3cr3t-Value-Never-Logged-9876543210';

/** The person behind OTHER_CLIENT_ID in the extended mode (`/v1/me`). */
export const OTHER_ME = {
  ...ME,
  id: '7a2d2d3f-5c1f-4b9f-8b62-1e4d3c2b1a22',
  email: 'bob@example.com',
  firstName: 'Bob',
  role: 'MEMBER',
} as const;

/** A handler for `/v1/*` (except `/v1/me`). `rec` fills in while the body streams. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, rec: Recorded) => void;

export type FakeUpstream = {
  /** The API base, ending in `/v1`. */
  apiUrl: string;
  mode: 'extended' | 'hosted';
  requests: Recorded[];
  /** Requests other than the token endpoint. */
  apiRequests(): Recorded[];
  tokenCalls: number;
  issued: string[];
  tokenDelayMs: number;
  tokenTtlSeconds: number;
  /** Status the token endpoint answers with instead of issuing (e.g. 503, 429). */
  tokenFailure: number | undefined;
  /** The body of that answer (default `{error: 'temporarily_unavailable'}`). */
  tokenFailureBody: unknown;
  /** Status `/v1/me` answers with instead of the mode's answer (e.g. 401, 405, 500), never a Me. */
  meStatus: number | undefined;
  meDelayMs: number;
  /**
   * While set, `/v1/me` answers wait for this promise (after meDelayMs): a test holds every
   * admitted request upstream until it has seen the rest refused, whatever the machine's load.
   */
  meGate: Promise<void> | undefined;
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
export async function startFakeUpstream(
  options: { mode?: 'extended' | 'hosted' } = {},
): Promise<FakeUpstream> {
  // Issued token -> the client id it was issued to.
  const valid = new Map<string, string>();
  const clients = new Map([
    [CLIENT_ID, CLIENT_SECRET],
    [OTHER_CLIENT_ID, OTHER_CLIENT_SECRET],
  ]);
  const state: FakeUpstream = {
    apiUrl: '',
    mode: options.mode ?? 'extended',
    requests: [],
    apiRequests: () => state.requests.filter((r) => !r.url.startsWith('/oauth/')),
    tokenCalls: 0,
    issued: [],
    tokenDelayMs: 0,
    tokenTtlSeconds: 3600,
    tokenFailure: undefined,
    tokenFailureBody: { error: 'temporarily_unavailable' },
    meStatus: undefined,
    meDelayMs: 0,
    meGate: undefined,
    route: echoRoute,
    revokeTokens: () => valid.clear(),
    reset() {
      state.requests.length = 0;
      state.tokenCalls = 0;
      state.tokenDelayMs = 0;
      state.tokenTtlSeconds = 3600;
      state.tokenFailure = undefined;
      state.tokenFailureBody = { error: 'temporarily_unavailable' };
      state.meStatus = undefined;
      state.meDelayMs = 0;
      state.meGate = undefined;
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
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const reply = () => {
          if (state.tokenFailure !== undefined) {
            json(res, state.tokenFailure, state.tokenFailureBody, { 'retry-after': '7' });
            return;
          }
          const hosted = state.mode === 'hosted';
          let id: string | undefined;
          let secret: string | undefined;
          if (hosted) {
            // The published operation takes a JSON body only (as Prism enforces it).
            if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
              json(res, 400, { message: 'Request body must be JSON' });
              return;
            }
            const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<
              string,
              unknown
            >;
            id = typeof body.client_id === 'string' ? body.client_id : undefined;
            secret = typeof body.client_secret === 'string' ? body.client_secret : undefined;
          } else {
            const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
            [id, secret] = Buffer.from(basic, 'base64')
              .toString()
              .split(':')
              .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
          }
          if (id === undefined || clients.get(id) !== secret) {
            json(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic' });
            return;
          }
          const token = `tok-${state.issued.length + 1}-${Math.random().toString(36).slice(2)}`;
          state.issued.push(token);
          valid.set(token, id);
          // Hosted: 201, and only the key a client cannot do without is promised.
          json(
            res,
            hosted ? 201 : 200,
            hosted
              ? { access_token: token, expires_in: state.tokenTtlSeconds }
              : { access_token: token, token_type: 'Bearer', expires_in: state.tokenTtlSeconds },
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
      // A forced status comes with a body that is not a Me (even a 200).
      const forced = state.meStatus;
      const gate = state.meGate ?? Promise.resolve();
      const answer = () => {
        if (forced !== undefined) json(res, forced, { message: 'Not Found' });
        else if (state.mode === 'hosted') json(res, 404, { message: 'Not Found' });
        else json(res, 200, valid.get(bearer) === OTHER_CLIENT_ID ? OTHER_ME : ME);
      };
      setTimeout(() => void gate.then(answer), state.meDelayMs);
      return;
    }
    state.route(req, res, rec);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
