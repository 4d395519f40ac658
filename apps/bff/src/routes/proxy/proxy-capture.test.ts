// What a captured write holds in memory (issue 26, L4): its reply at most the API's record size,
// no read again when the reply lacks a field, and at most `capturedWritesPerRegion` of them at
// once per region, measured: 16 concurrent PUTs of records with three ~99 KB fields, the upstream
// holding every PUT until all 16 are admitted, add at most a few MiB to the BFF's heap.
import { request as httpRequest } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import type { RecordStore } from '../../../test/record-store-route.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { createHarness } from '../../../test/harness.ts';
import { sendJson } from '../../../test/json-request.ts';
import { recordStore } from '../../../test/record-store-route.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { COPY_FRESH_MS } from './record-copies.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap and array buffers (where Buffers live), after a full collection. */
function heldBytes(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const MiB = 1024 * 1024;
const FIELD = 99 * 1024;
/** Generous: the pool's 8 bodies of ~300 KB, the session's copies (1 MiB) and their bookkeeping. */
const BOUND = 6 * MiB;

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('captured writes are bounded in memory', () => {
  let h: Harness;
  let base: string;
  let cookie: string;
  let store: RecordStore;
  const held: { req: IncomingMessage; res: ServerResponse }[] = [];
  let holding = true;
  let mostAtOnce = 0;

  beforeAll(async () => {
    h = await createHarness();
    base = await h.listen();
    ({ cookie } = await h.login());
    store = recordStore();
    for (let n = 0; n <= 16; n++) {
      // Flat strings from the start: V8 flattening the test's own values on their first
      // JSON.stringify would otherwise be counted as the BFF's memory.
      const value = (c: string) => Buffer.from(`${c}${n}`.padEnd(FIELD, c)).toString('latin1');
      store.records.set(`SUP-${n}`, {
        id: `SUP-${n}`,
        A: value('a'),
        B: value('b'),
        C: value('c'),
      });
    }
    h.upstream.route = (req, res, rec) => {
      if (req.method !== 'PUT' || !holding) return store.route(req, res, rec);
      // Held without reading the body: what the BFF holds meanwhile is what is measured.
      held.push({ req, res });
      mostAtOnce = Math.max(mostAtOnce, held.length);
    };
  });
  afterAll(async () => {
    await h.close();
  });

  /** A PUT over a plain socket from one shared body (the client holds nothing per request). */
  const put = (id: string, body: Buffer) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/api/v1/apps/support/${id}`, {
        method: 'PUT',
        agent: false,
        headers: {
          'x-csrf': '1',
          cookie: `${SESSION_COOKIE}=${cookie}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });

  const inFlight = async () => {
    const text = await h.metrics.registry.metrics();
    return Number(/wsc_bff_proxied_in_flight\{region="default"\} (\d+)/.exec(text)?.[1] ?? 0);
  };

  it('16 concurrent PUTs of 3 x 99 KB fields add at most 6 MiB; 8 at a time reach the API', async () => {
    const body = Buffer.from(
      JSON.stringify({ A: 'x'.repeat(FIELD), B: 'y'.repeat(FIELD), C: 'z'.repeat(FIELD) }),
    );
    // A first write warms every code path (and the pools) before the baseline.
    holding = false;
    expect(await put('SUP-0', body)).toBe(200);
    holding = true;
    // The clock stands still: no session re-read from the store (whose buffers would count).
    const before = heldBytes();

    const answers = Array.from({ length: 16 }, (_, i) => put(`SUP-${i + 1}`, body));
    await until(async () => (await inFlight()) === 16, 'all 16 admitted by the BFF');
    await until(() => held.length === h.config.capturedWritesPerRegion, 'the pool at the API');
    const added = heldBytes() - before;
    process.stdout.write(
      `captured-writes memory: 16 admitted, ${held.length} at the API, +${(added / MiB).toFixed(2)} MiB (bound ${BOUND / MiB} MiB)\n`,
    );
    expect(added).toBeLessThan(BOUND);

    holding = false;
    for (const { req, res } of held.splice(0)) {
      // The fake upstream has counted (read) the body already: answer with the stored record.
      const id = decodeURIComponent(req.url?.split('/').pop() ?? '');
      const text = JSON.stringify(store.records.get(id));
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v2"' });
      res.end(text);
    }
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 16 }, () => 200));
    expect(mostAtOnce).toBe(h.config.capturedWritesPerRegion);
  });
});

describe('a captured write’s reply', () => {
  let h: Harness;
  let cookie: string;
  const changes: RecordChange[] = [];
  const bus = createRecordChangeBus();
  bus.subscribe((change) => changes.push(change));

  beforeAll(async () => {
    h = await createHarness({ deps: { recordChanges: bus } });
    ({ cookie } = await h.login());
  });
  afterAll(async () => {
    await h.close();
  });

  const put = (body: unknown) =>
    sendJson(h, '/api/v1/apps/support/SUP-1', { cookie, method: 'PUT', body });

  it('lacking a changed field: the body’s value is kept, the record is not read again', async () => {
    const store = recordStore();
    store.records.set('SUP-1', { id: 'SUP-1', Status: 'New' });
    h.upstream.route = (req, res, rec) => {
      if (req.method !== 'PUT') return store.route(req, res, rec);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"SUP-1"}');
      });
    };
    const from = h.upstream.apiRequests().length;
    h.clock.advance(COPY_FRESH_MS + 1);
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(
      h.upstream
        .apiRequests()
        .slice(from)
        .map((r) => r.method),
    ).toEqual(['GET', 'PUT']);
    expect(changes.at(-1)?.fields).toEqual([{ field: 'Status', before: 'New', after: 'Open' }]);
  });

  it('over the record size (1 MiB): passes whole to the browser, the change kept without it', async () => {
    const large = JSON.stringify({ id: 'SUP-1', Status: 'Open', Notes: 'n'.repeat(1_200_000) });
    h.upstream.route = (req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.method === 'PUT' ? large : '{"id":"SUP-1","Status":"New"}');
      });
    };
    h.clock.advance(COPY_FRESH_MS + 1);
    const res = await put({ Status: 'Open' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(large);
    expect(changes.at(-1)?.fields).toEqual([{ field: 'Status', before: 'New', after: 'Open' }]);
  });
});
