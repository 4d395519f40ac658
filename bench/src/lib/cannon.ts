// autocannon, driven programmatically, with exact per-response latencies: autocannon's own
// histogram has a resolution of 1 ms, too coarse for a 1 ms budget, so the instance's 'response'
// events (which carry the float duration) are collected as well.
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

export type CannonRun = {
  /** Every 2xx response's latency in ms (float). */
  latencies: number[];
  requests: number;
  non2xx: number;
  errors: number;
  durationS: number;
  /** 2xx responses per second over the run. */
  rate: number;
};

/**
 * Runs autocannon against one URL for `durationS` seconds with `connections` keep-alive
 * connections (no pipelining) and returns exact latencies and the rate.
 *
 * @example
 * const run = await cannon({ url, headers, connections: 1, durationS: 5 });
 */
export function cannon(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
}): Promise<CannonRun> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: options.url,
        headers: options.headers ?? {},
        connections: options.connections,
        pipelining: 1,
        duration: options.durationS,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const ok = latencies.length;
        resolve({
          latencies,
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          durationS: result.duration,
          rate: ok / result.duration,
        });
      },
    );
    (instance as unknown as EventEmitter).on(
      'response',
      (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) latencies.push(ms);
      },
    );
  });
}
