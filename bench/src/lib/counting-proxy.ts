// A transparent HTTP proxy between the BFF and the API that counts token endpoint calls per client
// id and can answer every n-th resource GET with a 401 itself (as if the token had been revoked),
// to check the BFF's refresh-and-replay. Bodies are piped both ways.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyCounts = {
  /** POST /oauth/token calls per client id (from the Basic header). */
  tokenCalls: Map<string, number>;
  /** Injected 401s per client id (resolved from the bearer token the BFF sent). */
  injected401: Map<string, number>;
  forwarded: number;
};

export type CountingProxy = {
  url: string;
  counts: ProxyCounts;
  setInjectEvery: (n: number) => void;
  close: () => Promise<void>;
};

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * The client id in an HTTP Basic header (form-encoded, as RFC 6749 2.3.1 asks).
 *
 * @example
 * basicClientId(`Basic ${btoa('my%20id:secret')}`); // 'my id'
 */
export function basicClientId(header: string | undefined): string | undefined {
  const match = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
}

/**
 * Starts the proxy on a free loopback port in front of `target` (e.g. http://127.0.0.1:8080).
 *
 * @example
 * const proxy = await startCountingProxy(api.url); // BFF: WORKSPACE_API_URL=`${proxy.url}/v1`
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const counts: ProxyCounts = { tokenCalls: new Map(), injected401: new Map(), forwarded: 0 };
  const clientByToken = new Map<string, string>();
  let injectEvery = 0;
  let resourceGets = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const isToken = request.method === 'POST' && url.startsWith('/oauth/token');
    const clientId = isToken ? basicClientId(request.headers.authorization) : undefined;
    if (isToken) bump(counts.tokenCalls, clientId ?? '(unknown)');
    if (!isToken && request.method === 'GET' && url.startsWith('/v1/') && injectEvery > 0) {
      resourceGets += 1;
      if (resourceGets % injectEvery === 0) {
        const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
        bump(counts.injected401, clientByToken.get(bearer) ?? '(unknown)');
        request.resume();
        response.writeHead(401, {
          'Content-Type': 'application/problem+json',
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        });
        response.end(
          JSON.stringify({
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            detail: 'Injected by the benchmark proxy',
          }),
        );
        return;
      }
    }
    counts.forwarded += 1;
    const upstream = http.request(
      `${target}${url}`,
      { method: request.method, headers: request.headers, agent },
      (reply) => {
        if (isToken && clientId) {
          // Remember which client a token belongs to, to attribute injected 401s.
          const chunks: Buffer[] = [];
          reply.on('data', (chunk: Buffer) => chunks.push(chunk));
          reply.on('end', () => {
            const body = Buffer.concat(chunks);
            try {
              const token = (JSON.parse(body.toString('utf8')) as { access_token?: string })
                .access_token;
              if (token) clientByToken.set(token, clientId);
            } catch {
              // Not JSON (an error reply): nothing to remember.
            }
            response.writeHead(reply.statusCode ?? 502, reply.headers);
            response.end(body);
          });
          return;
        }
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setInjectEvery: (n) => {
      injectEvery = n;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
