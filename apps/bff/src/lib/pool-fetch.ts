// `fetch` over the proxy's node:http keep-alive pool, for the BFF's own calls to the API (token,
// `/v1/me`, definitions, user look-ups). With it, the token request of a sign-in opens (or takes)
// the very connection the first proxied read then reuses: one pool per region, not one for the
// proxy and another inside undici (ADR 0029).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

import type { UpstreamAgents } from './upstream-pool.ts';
import { asStaleConnection, MAX_STALE_RETRIES, StaleConnectionError } from './connection-reset.ts';

/** Content codings undone as fetch would (the BFF asks for identity; a server may not listen). */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

function bodyless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || status < 200;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name === undefined || value === undefined) continue;
    try {
      headers.append(name, value);
    } catch {
      // A header fetch would refuse too (invalid characters): left out.
    }
  }
  return headers;
}

/**
 * A web Response of a node response. Statuses a Response cannot be built with (outside
 * 200-599, which fetch still returns) get theirs set on the object, so callers see them as is.
 */
function toResponse(res: IncomingMessage, method: string, signal: AbortSignal | undefined) {
  const status = res.statusCode ?? 502;
  const headers = responseHeaders(res);
  let body: ReadableStream<Uint8Array> | null = null;
  if (bodyless(method, status)) res.resume();
  else {
    const decode = DECODERS[(res.headers['content-encoding'] ?? '').trim().toLowerCase()];
    const source: Readable = decode ? (res.pipe(decode()) as unknown as Readable) : res;
    if (decode) res.once('error', (error) => source.destroy(error));
    // An abort after the headers ends the body as fetch does: the read fails with the reason.
    const onAbort = () => source.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    source.once('close', () => signal?.removeEventListener('abort', onAbort));
    body = Readable.toWeb(source) as ReadableStream<Uint8Array>;
  }
  const inRange = status >= 200 && status <= 599;
  const response = new Response(body, {
    status: inRange ? status : 200,
    statusText: res.statusMessage ?? '',
    headers,
  });
  if (!inRange) {
    Object.defineProperty(response, 'status', { value: status });
    Object.defineProperty(response, 'ok', { value: false });
  }
  return response;
}

/**
 * A `fetch` whose requests go through `agents` (node:http), so they share the proxy's pooled
 * connections. Same contract as fetch for what the BFF uses: method, headers, a body, a signal
 * (rejects with its reason, e.g. a TimeoutError), status, headers and a streamed body. It does
 * not follow redirects (the API has none; the proxy does not follow them either).
 *
 * @example
 * const fetchUpstream = agentFetch(createUpstreamAgents(512));
 * const res = await fetchUpstream(`${region.apiUrl}/me`, { headers });
 */
export function agentFetch(agents: UpstreamAgents): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const headers: OutgoingHttpHeaders = Object.fromEntries(request.headers);
    headers['accept-encoding'] ??= 'identity';
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    if (body) headers['content-length'] = body.length;
    const send = () =>
      new Promise<Response>((resolve, reject) => {
        const req = (secure ? httpsRequest : httpRequest)(url, {
          method: request.method,
          headers,
          agent: secure ? agents.https : agents.http,
        });
        const onAbort = () => req.destroy(signal?.reason as Error);
        signal?.addEventListener('abort', onAbort, { once: true });
        req.once('response', (res) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(toResponse(res, request.method, signal ?? undefined));
        });
        req.once('error', (error) => {
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted) reject(signal.reason as Error);
          else
            reject(
              asStaleConnection(req, error) ?? new TypeError('fetch failed', { cause: error }),
            );
        });
        req.end(body);
      });
    // The BFF's own calls are all safe to send twice (reads, and a token request, whose second
    // token is as good as the first), and their bodies are held whole: one that went out on a
    // pooled connection the upstream was closing goes again at once (ADR 0031).
    for (let resend = 0; ; resend++) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof StaleConnectionError)) throw error;
        if (resend >= MAX_STALE_RETRIES)
          throw new TypeError('fetch failed', { cause: error.cause });
      }
    }
  };
}
