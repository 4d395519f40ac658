// Test infrastructure of the hosted run: a loopback router in front of Prism. Prism re-sends
// bodies as UTF-8 text, which corrupts binary ones both ways: a multipart upload arrives broken,
// and a downloaded file comes back with other bytes (seen with the 50 MB attachment of
// attachments.spec.ts). So the two binary operations go straight to the API: `POST .../attachments`
// with a multipart body, and `GET .../attachments/{id}/content`. Everything else goes to Prism,
// which checks it against the published contract. The upload's request shape is checked by the
// api-client's request-conformance unit test instead; the replies of both are checked here
// against what the document declares for them (status, and a 202 without a body or an
// `application/octet-stream` file). Bodies stream both ways; nothing is buffered.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BinaryRouter {
  /** `http://127.0.0.1:<port>`: the BFF's API base is `${origin}/v1`. */
  origin: string;
  /** How many requests went around Prism (uploads and downloads). */
  bypassed: () => number;
  /** Replies of the requests sent around Prism that the published document does not allow. */
  violations: () => string[];
  close: () => Promise<void>;
}

type Bypass = 'upload' | 'download';

/** The published upload operation: `POST /v1/{recordType}/{alias}/{id}/attachments` (not url-links). */
const UPLOAD_PATH = /^\/v1\/[^/?]+\/[^/?]+\/[^/?]+\/attachments\/?(?:\?.*)?$/;
/** The published download operation: `GET /v1/{recordType}/{alias}/{id}/attachments/{attachmentId}/content`. */
const DOWNLOAD_PATH = /^\/v1\/[^/?]+\/[^/?]+\/[^/?]+\/attachments\/[^/?]+\/content\/?(?:\?.*)?$/;
/** The statuses both operations declare besides their success (202 and 200). */
const DECLARED_ERRORS = new Set([400, 401, 403, 404, 422, 429, 500]);

function bypassOf(req: IncomingMessage): Bypass | undefined {
  const url = req.url ?? '';
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (req.method === 'POST' && UPLOAD_PATH.test(url) && type.startsWith('multipart/form-data')) {
    return 'upload';
  }
  if (req.method === 'GET' && DOWNLOAD_PATH.test(url)) return 'download';
  return undefined;
}

/** What is wrong with a bypassed reply's status and headers, if anything. */
function replyProblem(kind: Bypass, reply: IncomingMessage): string | undefined {
  const status = reply.statusCode ?? 0;
  const success = kind === 'upload' ? 202 : 200;
  if (status !== success && !DECLARED_ERRORS.has(status)) return `undeclared status ${status}`;
  const type = (reply.headers['content-type'] ?? '').toLowerCase();
  if (kind === 'download' && status === 200 && !type.startsWith('application/octet-stream')) {
    return `content type ${type || '(none)'} instead of application/octet-stream`;
  }
  return undefined;
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  kind: Bypass | undefined,
  report: (problem: string) => void,
) {
  const upstream = http.request(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host },
      // A fresh connection each time: reusing one the server is just closing (its keep-alive
      // timeout) would fail the request with a reset that nobody sent.
      agent: false,
    },
    (reply) => {
      if (kind) {
        const problem = replyProblem(kind, reply);
        if (problem) report(`${req.method} ${req.url}: ${problem}`);
        if (kind === 'upload' && reply.statusCode === 202) {
          let bytes = 0;
          reply.on('data', (chunk: Buffer) => (bytes += chunk.length));
          reply.on('end', () => {
            if (bytes > 0) report(`${req.method} ${req.url}: a 202 with a ${bytes}-byte body`);
          });
        }
      }
      res.writeHead(reply.statusCode ?? 502, reply.statusMessage, reply.headers);
      reply.pipe(res);
      reply.on('error', () => res.destroy());
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('binary router: upstream unavailable');
    } else {
      res.destroy();
    }
  });
  // The client gave up (e.g. a canceled upload): stop sending upstream too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/**
 * Starts the router on a free loopback port.
 *
 * @example
 * const router = await startBinaryRouter({ prism: prism.origin, api: 'http://127.0.0.1:4010' });
 * // BFF: WORKSPACE_API_URL=`${router.origin}/v1`
 * await router.close();
 * expect(router.violations()).toEqual([]);
 */
export async function startBinaryRouter(targets: {
  prism: string;
  api: string;
}): Promise<BinaryRouter> {
  const prism = new URL(targets.prism);
  const api = new URL(targets.api);
  let bypassed = 0;
  const violations: string[] = [];
  const server = http.createServer((req, res) => {
    const kind = bypassOf(req);
    if (kind) bypassed += 1;
    forward(req, res, kind ? api : prism, kind, (problem) => violations.push(problem));
  });
  // Uploads of 50 MB through a throttled browser take a while: no server-side timeouts here.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    bypassed: () => bypassed,
    violations: () => [...violations],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
