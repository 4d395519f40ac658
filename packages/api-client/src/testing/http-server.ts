// Test-only: a real loopback HTTP server that records every request, so the client is exercised
// over actual sockets (headers, encoding, bodies) instead of a mocked fetch.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Replaces the handler (tests share one server per file). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Writes a JSON (or problem+json) reply. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  response.writeHead(status, { 'Content-Type': type, ...headers });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * Starts a server on an ephemeral loopback port; the handler sees the fully read request.
 *
 * @example
 * const server = await startTestServer((req, res) => sendJson(res, 200, {}));
 */
export async function startTestServer(initial?: Handler): Promise<TestServer> {
  let handler: Handler = initial ?? ((_req, res) => sendJson(res, 404, {}));
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: await readBody(req),
      };
      requests.push(recorded);
      try {
        await handler(recorded, res);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
