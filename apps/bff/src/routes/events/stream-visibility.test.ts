// A stream's view of what its session may see closes when it cannot be confirmed (ADR 0027,
// review M1): while the upstream fails to answer, the answer is kept until it is a minute old;
// after that the stream hears nothing until a refresh works again. Through HTTP, on a loopback
// port, with the BFF's clock moved past the minute.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { openEventStream } from '../../../test/event-stream.ts';
import { startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { defaultConfig } from '../../lib/config.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { VISIBLE_TTL_MS } from '../../lib/visible-definitions.ts';

let failing = false;
function definitionsRoute(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  if (req.url !== '/v1/definitions' || failing) {
    res.writeHead(failing ? 500 : 404, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      items: [
        {
          recordType: 'apps',
          alias: 'support-tickets',
          name: 'Support Tickets',
          handle: 'SUP',
          fields: [],
        },
      ],
    }),
  );
}

const bus = createRecordChangeBus();
let upstream: FakeUpstream;
let h: Harness;
let base: string;

const change = (recordId: string): RecordChange => ({
  region: 'default',
  recordType: 'apps',
  alias: 'support-tickets',
  recordId,
  kind: 'updated',
  actor: { id: 'u-1', name: 'Ada Lovelace', identity: 'api' },
  source: 'editor',
  at: Date.parse('2025-03-01T09:00:00.000Z'),
  fields: [],
});

async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.route = definitionsRoute;
  h = await createHarness({
    upstream,
    socket: true,
    config: { liveEvents: { ...defaultConfig().liveEvents, heartbeatMs: 100 } },
    deps: { recordChanges: bus },
  });
  base = await h.listen();
});
afterAll(async () => {
  await h.close();
  await upstream.close();
});

describe('what a stream may see, when the upstream stops answering', () => {
  it('is kept a minute, then nothing reaches the stream until a refresh works', async () => {
    const { cookie } = await h.login();
    const s = await openEventStream(base, { cookie: `${SESSION_COOKIE}=${cookie}` });
    try {
      bus.publish(change('SUP-1'));
      await s.next('record-changed', (m) => m.data.recordId === 'SUP-1');

      failing = true;
      h.clock.advance(VISIBLE_TTL_MS);
      await eventually(() => h.logs.some((l) => l.includes('visible definitions refresh failed')));
      bus.publish(change('SUP-2'));
      // Heartbeats pass; the change never arrives.
      const seen = s.messages.length;
      await eventually(
        () => s.messages.slice(seen).filter((m) => m.kind === 'comment').length >= 3,
      );
      expect(
        s.messages.some((m) => m.kind === 'record-changed' && m.data.recordId === 'SUP-2'),
      ).toBe(false);

      failing = false;
      await eventually(() => {
        bus.publish(change('SUP-3'));
        return s.messages.some((m) => m.kind === 'record-changed' && m.data.recordId === 'SUP-3');
      });
    } finally {
      failing = false;
      s.close();
    }
  });
});
