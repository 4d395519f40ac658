// 200 idle live event streams (`GET /bff/events`, ADR 0023) on one BFF process for ~30 s: the
// BFF's RSS and V8 heap before and after (per stream), its open file descriptors and sockets, the
// heartbeat traffic each stream gets, that stream 201 is refused (429) at a configured limit of
// 200, and that closing them gives everything back.
import { readdir, readlink } from 'node:fs/promises';
import http from 'node:http';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { Section } from './lib/report.ts';
import { freePort, readMemory } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { bffLogin, startBff, startFreshApi } from './lib/stack.ts';
import { formatMiB } from './lib/stats.ts';

const STREAMS = 200;
const PER_SESSION = 6;
const IDLE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function descriptors(pid: number): Promise<{ fds: number; sockets: number }> {
  const entries = await readdir(`/proc/${pid}/fd`);
  let sockets = 0;
  for (const entry of entries) {
    const target = await readlink(`/proc/${pid}/fd/${entry}`).catch(() => '');
    if (target.startsWith('socket:')) sockets += 1;
  }
  return { fds: entries.length, sockets };
}

async function heapUsed(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const match = /^\w*nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

type Stream = { bytes: number; heartbeats: number; request: http.ClientRequest };

/** Opens one stream on its own socket; resolves once the hello event arrived. */
function openStream(url: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/bff/events`, { headers: { cookie }, agent: false });
    const stream: Stream = { bytes: 0, heartbeats: 0, request };
    request.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream refused: ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let hello = false;
      res.on('data', (chunk: string) => {
        stream.bytes += Buffer.byteLength(chunk);
        stream.heartbeats += chunk.split(': heartbeat').length - 1;
        if (!hello && chunk.includes('event: hello')) {
          hello = true;
          resolve(stream);
        }
      });
    });
    request.on('error', reject);
  });
}

async function run(ctx: BenchContext): Promise<Section> {
  const fresh = await startFreshApi('sse-idle-api');
  const metricsPort = await freePort();
  const bff = await startBff('sse-idle-bff', fresh.api.url, {
    BFF_MAX_EVENT_STREAMS: String(STREAMS),
    BFF_METRICS_PORT: String(metricsPort),
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const agent = new http.Agent({ keepAlive: true });
  const streams: Stream[] = [];
  try {
    const cookies: string[] = [];
    for (let i = 0; i < Math.ceil(STREAMS / PER_SESSION); i += 1) {
      cookies.push(await bffLogin(agent, bff.url, fresh.credentials.admin));
    }
    agent.destroy();
    // A warm-up round (the code paths compiled, start-up garbage collected), so that "before"
    // is the BFF at rest rather than still settling after start-up.
    const warm: Stream[] = [];
    for (let i = 0; i < STREAMS; i += 1) {
      warm.push(await openStream(bff.url, cookies[Math.floor(i / PER_SESSION)] ?? ''));
    }
    for (const s of warm) s.request.destroy();
    await sleep(5_000);
    const before = await readMemory(bff.pid);
    const heapBefore = await heapUsed(metricsUrl);
    const fdsBefore = await descriptors(bff.pid);

    const opening = performance.now();
    for (let i = 0; i < STREAMS; i += 1) {
      streams.push(await openStream(bff.url, cookies[Math.floor(i / PER_SESSION)] ?? ''));
    }
    const openMs = performance.now() - opening;
    const bytesAfterOpen = streams.reduce((sum, s) => sum + s.bytes, 0);

    // Stream 201: a session with room (its own), but the instance is full.
    const extra = await fetch(`${bff.url}/bff/events`, {
      headers: { cookie: cookies.at(-1) ?? '' },
    });
    const refused = extra.status;
    const retryAfter = extra.headers.get('retry-after');
    await extra.body?.cancel();

    ctx.log(
      `sse-idle: ${STREAMS} streams open in ${openMs.toFixed(0)} ms; idling ${IDLE_MS / 1000} s`,
    );
    await sleep(IDLE_MS);
    const after = await readMemory(bff.pid);
    const heapAfter = await heapUsed(metricsUrl);
    const fdsAfter = await descriptors(bff.pid);
    const idleBytes = streams.reduce((sum, s) => sum + s.bytes, 0) - bytesAfterOpen;
    const heartbeats = streams.reduce((sum, s) => sum + s.heartbeats, 0);

    for (const s of streams) s.request.destroy();
    await sleep(5_000);
    const fdsClosed = await descriptors(bff.pid);
    const closed = await readMemory(bff.pid);
    const heapClosed = await heapUsed(metricsUrl);

    const perStream = (a: number, b: number) => `${((b - a) / STREAMS / 1024).toFixed(1)} KiB`;
    return {
      id: 'sse-idle',
      title: 'BFF: 200 idle live event streams',
      command: ctx.command,
      date: new Date(),
      machine: machineInfo(),
      figures: [
        {
          name: `BFF RSS at rest / with ${STREAMS} streams after ${IDLE_MS / 1000} s idle / 5 s after closing them`,
          value: `${formatMiB(before.rss)} / ${formatMiB(after.rss)} / ${formatMiB(closed.rss)}`,
        },
        {
          name: 'V8 heap used, the same three moments',
          value: `${formatMiB(heapBefore)} / ${formatMiB(heapAfter)} / ${formatMiB(heapClosed)}`,
        },
        {
          name: 'per stream (with streams minus after closing them)',
          value: `RSS ${perStream(closed.rss, after.rss)}, heap ${perStream(heapClosed, heapAfter)}`,
        },
        {
          name: 'open file descriptors (sockets) before / with streams / after closing them',
          value: `${fdsBefore.fds} (${fdsBefore.sockets}) / ${fdsAfter.fds} (${fdsAfter.sockets}) / ${fdsClosed.fds} (${fdsClosed.sockets})`,
          budget: `one socket per stream, all given back`,
          pass:
            fdsAfter.sockets - fdsBefore.sockets <= STREAMS + 2 &&
            fdsClosed.sockets - fdsBefore.sockets <= 2,
        },
        {
          name: 'stream 201 (limit BFF_MAX_EVENT_STREAMS=200)',
          value: `${refused}${retryAfter ? `, Retry-After ${retryAfter}` : ''}`,
          budget: '429',
          pass: refused === 429,
        },
        {
          name: `heartbeat traffic while idle (${IDLE_MS / 1000} s)`,
          value: `${heartbeats} heartbeats, ${(idleBytes / STREAMS / (IDLE_MS / 1000)).toFixed(1)} B/s per stream`,
        },
        {
          name: 'opening the streams (one after another, each its own socket)',
          value: `${(openMs / STREAMS).toFixed(1)} ms per stream`,
        },
      ],
      notes: [
        `Method: the API on a fresh demo folder and one BFF process (\`node --import tsx src/index.ts\`, embedded PGlite store, BFF_MAX_EVENT_STREAMS=${STREAMS}); ${Math.ceil(STREAMS / PER_SESSION)} sessions of the demo admin (at most ${PER_SESSION} streams each), ${STREAMS} streams opened one after another on their own sockets, read but never written to, for ${IDLE_MS / 1000} s, after a warm-up round of as many streams opened and closed (so that "before" is the BFF at rest, not still settling after start-up). RSS from /proc/<pid>/status, heap from the BFF's Prometheus port (nodejs_heap_size_used_bytes, not after a forced GC, so it moves with the collector), descriptors from /proc/<pid>/fd. Each stream costs the BFF a socket, one presence row (refreshed in one UPDATE per instance every 5 s) and a small entry in memory; the heartbeat is a 13-byte comment every 15 s.`,
        "Reading: the memory figures are noisy at this size. Three runs on this (busy) machine gave a per-stream difference of -187, -19 and +113 KiB of RSS and -46, -11 and +34 KiB of heap: the collector and PGlite's WASM pages move RSS and heap by more than 200 idle streams add, so take ~35 KiB of heap per stream as an upper bound, not a measurement. The bounded figures are the firm ones: one socket per stream, all given back, and the 201st refused.",
      ],
    };
  } finally {
    for (const s of streams) s.request.destroy();
    agent.destroy();
    await bff.stop();
    await fresh.stop();
  }
}

export const sseIdleBench: Bench = { id: 'sse-idle', title: 'BFF idle live event streams', run };
