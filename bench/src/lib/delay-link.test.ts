import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import type { DelayLink } from './delay-link.ts';
import { startDelayLink } from './delay-link.ts';

let target: http.Server | undefined;
let link: DelayLink | undefined;

afterEach(async () => {
  await link?.close();
  await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
});

async function startTarget(): Promise<string> {
  target = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(request.url?.startsWith('/limited') ? 429 : 200, { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => target?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

/** One GET through a keep-alive agent; resolves with the elapsed ms. */
function timedGet(agent: http.Agent, url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

describe('delay link', () => {
  it('holds each direction, charges a new connection its handshake, and logs each request', async () => {
    link = await startDelayLink(await startTarget(), { oneWayMs: 40, handshakeRoundTrips: 1 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // New connection: handshake (80) + request (40) + reply (40). Lower bounds only: a busy
      // machine can only add to them.
      const cold = await timedGet(agent, `${link.url}/first`);
      // Kept alive: one round trip.
      const warm = await timedGet(agent, `${link.url}/limited?x=1`);
      expect(cold).toBeGreaterThanOrEqual(155);
      expect(warm).toBeGreaterThanOrEqual(78);
      await link.quiet(0);
      expect(link.connections()).toBe(1);
      expect(link.log.map((entry) => [entry.method, entry.path, entry.status, entry.connection])).toEqual([
        ['GET', '/first', 200, 1],
        ['GET', '/limited?x=1', 429, 1],
      ]);
    } finally {
      agent.destroy();
    }
  });

  it('passes through at once with no delay, and a dropped pool opens a new connection', async () => {
    link = await startDelayLink(await startTarget());
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await timedGet(agent, `${link.url}/a`);
      link.dropConnections();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await timedGet(agent, `${link.url}/b`);
      expect(link.connections()).toBe(2);
      expect(link.log.map((entry) => entry.connection)).toEqual([1, 2]);
    } finally {
      agent.destroy();
    }
  });
});
