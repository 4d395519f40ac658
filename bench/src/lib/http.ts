// A small HTTP client for latency measurements: node:http with a keep-alive agent (one socket per
// concurrent request, reused), timing from the request being written to the last body byte. The
// body is read as bytes and not parsed, so the figure is the server's time plus loopback transfer.
import http from 'node:http';

export type Timed = { status: number; ms: number; body: Buffer; headers: http.IncomingHttpHeaders };

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Fail with a RequestTimeout when the whole answer has not arrived within this (no limit when absent). */
  timeoutMs?: number;
};

/** A request that did not complete within its `timeoutMs`: the server hung (or the machine stalled). */
export class RequestTimeout extends Error {
  constructor(url: string, ms: number) {
    super(`no complete answer from ${url} within ${ms} ms`);
    this.name = 'RequestTimeout';
  }
}

/**
 * A keep-alive agent; pass the same one to every request of a measurement. Idle sockets are
 * closed after 4 s, before Node servers' 5 s keep-alive timeout, so a request never goes out on a
 * socket the server is closing at that moment (ECONNRESET "socket hang up").
 *
 * @example
 * const agent = keepAliveAgent(8);
 */
export function keepAliveAgent(maxSockets = 16): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, timeout: 4_000 });
}

/**
 * One timed request.
 *
 * @example
 * const agent = keepAliveAgent();
 * const { status, ms } = await timedRequest(agent, 'http://127.0.0.1:8080/health');
 */
export function timedRequest(
  agent: http.Agent,
  url: string,
  options: RequestOptions = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const body =
      options.body === undefined
        ? undefined
        : Buffer.isBuffer(options.body)
          ? options.body
          : Buffer.from(options.body);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const request = http.request(
      url,
      {
        agent,
        method: options.method ?? 'GET',
        headers: { ...options.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks),
            headers: response.headers,
          });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        // A cut-off answer (connection closed or destroyed mid-body) never hangs the caller.
        response.on('close', () => {
          clearTimeout(timer);
          if (!response.complete) reject(new Error(`answer from ${url} cut off before its end`));
        });
      },
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (options.timeoutMs !== undefined) {
      const ms = options.timeoutMs;
      timer = setTimeout(() => request.destroy(new RequestTimeout(url, ms)), ms);
    }
    request.end(body);
  });
}

/**
 * A timed request that must answer `expected`; throws with the body otherwise.
 *
 * @example
 * const { ms } = await expectStatus(agent, url, 200, { headers: { Authorization: `Bearer ${token}` } });
 */
export async function expectStatus(
  agent: http.Agent,
  url: string,
  expected: number,
  options: RequestOptions = {},
): Promise<Timed> {
  const result = await timedRequest(agent, url, options);
  if (result.status !== expected) {
    throw new Error(
      `${options.method ?? 'GET'} ${url}: expected ${expected}, got ${result.status}: ${result.body.toString('utf8').slice(0, 500)}`,
    );
  }
  return result;
}

/**
 * Runs `task` with `concurrency` workers until `count` calls or `maxMs` elapse; returns the
 * latencies and the achieved rate. Bounded both ways so a slow machine cannot hang the run.
 *
 * @example
 * const { rate } = await closedLoop(4, 500, 10_000, (i) => timedRequest(agent, url).then((r) => r.ms));
 */
export async function closedLoop(
  concurrency: number,
  count: number,
  maxMs: number,
  task: (index: number) => Promise<number>,
): Promise<{ latencies: number[]; elapsedMs: number; rate: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count && performance.now() - started < maxMs) {
      const index = next;
      next += 1;
      latencies.push(await task(index));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;
  return { latencies, elapsedMs, rate: latencies.length / (elapsedMs / 1000) };
}
