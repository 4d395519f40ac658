// Which proxied requests the record history captures (everything else keeps the streaming path),
// and proof on a real socket that a read of a record is neither buffered nor preceded by a read.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { sendJson } from '../../../test/json-request.ts';
import { regionFor } from '../../lib/config.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { capturePlan, changeSource } from './proxy-history.ts';

describe('capturePlan', () => {
  it('names the record-changing writes of the contract and nothing else', () => {
    const kind = (method: string, path: string) => capturePlan(method, `/api/v1${path}`)?.kind;
    expect(kind('POST', '/apps/support')).toBe('created');
    expect(kind('PUT', '/apps/support/SUP-1')).toBe('updated');
    expect(kind('POST', '/tasks/todo/T-1/related-items')).toBe('related-item-added');
    expect(kind('DELETE', '/tasks/todo/T-1/related-items/T-2')).toBe('related-item-removed');
    expect(kind('POST', '/apps/support/SUP-1/attachments')).toBe('attachment-added');
    expect(kind('POST', '/apps/support/SUP-1/attachments/url-links')).toBe('attachment-added');
    expect(kind('DELETE', '/apps/support/SUP-1/attachments/A-1')).toBe('attachment-removed');
    expect(kind('POST', '/apps/support/SUP-1/watchers')).toBe('watchers-changed');
    expect(kind('DELETE', '/apps/support/SUP-1/watchers')).toBe('watchers-changed');
    expect(kind('POST', '/apps/support/SUP-1/comment')).toBe('comment-added');
    // An upload's body is never read whole; an update's is, and reads the record first.
    expect(capturePlan('POST', '/api/v1/apps/support/SUP-1/attachments')?.readsBody).toBe(false);
    expect(capturePlan('PUT', '/api/v1/apps/support/SUP-1')?.readsBefore).toBe(true);

    for (const [method, path] of [
      ['GET', '/apps/support/SUP-1'],
      ['HEAD', '/apps/support/SUP-1'],
      ['GET', '/apps/support'],
      ['PUT', '/apps/support'],
      ['DELETE', '/apps/support/SUP-1'],
      ['POST', '/apps/support/automations'],
      ['PUT', '/apps/support/automations/a1'],
      ['PUT', '/apps/support/views/v1'],
      ['POST', '/users'],
      ['PUT', '/groups/g1'],
      ['PUT', '/tables/t1'],
      ['POST', '/apps/support/SUP-1/comment/x'],
      ['DELETE', '/apps/support/SUP-1/attachments/url-links'],
      ['GET', '/apps/support/SUP-1/attachments/A-1/content'],
    ] as const) {
      expect(kind(method, path), `${method} ${path}`).toBeUndefined();
    }
  });

  it('accepts only the console sources it knows', () => {
    expect(changeSource('editor')).toBe('editor');
    expect(changeSource('undo:0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d')).toBe(
      'undo:0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d',
    );
    for (const bad of [null, '', 'Editor', 'editor ', 'bulk-run:1', 'x'.repeat(300), 'triage\n']) {
      expect(changeSource(bad)).toBe('console');
    }
  });
});

describe('reads keep the streaming path', () => {
  let h: Harness;
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    h = await createHarness();
    base = await h.listen();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    ({ cookie } = await h.login());
    h.upstream.reset();
  });

  it('a GET of a record streams its first bytes while the upstream is still writing', async () => {
    let finish: () => void = () => {};
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"id":"SUP-1","Description":"${'a'.repeat(64 * 1024)}`);
      finish = () => res.end('"}');
    };
    const res = await fetch(`${base}/api/v1/apps/support/SUP-1`, {
      headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBeGreaterThan(0);
    finish();
    while (!(await reader?.read())?.done) {
      // drain
    }
    // One request upstream: no read before, none after.
    expect(h.upstream.apiRequests().map((r) => r.method)).toEqual(['GET']);

    // The streamed read was teed into the session's record copy (ADR 0029): an update right
    // after it needs no read of its own.
    h.upstream.route = (req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"SUP-1","Description":"b"}');
      });
    };
    const write = await sendJson(h, '/api/v1/apps/support/SUP-1', {
      cookie,
      method: 'PUT',
      body: { Description: 'b' },
    });
    expect(write.status).toBe(200);
    await write.text();
    expect(h.upstream.apiRequests().map((r) => r.method)).toEqual(['GET', 'PUT']);
  });
});

describe('a create whose reply has no id (the hosted service)', () => {
  it('takes the handle from the definition’s handle field, for the history and the bus', async () => {
    const upstream = await startFakeUpstream({ mode: 'hosted' });
    const bus = createRecordChangeBus();
    const seen: RecordChange[] = [];
    bus.subscribe((change) => seen.push(change));
    const tickets: Definition = {
      recordType: 'apps',
      alias: 'support-tickets',
      name: 'Support Tickets',
      handle: 'SUP',
      handleField: 'Ticket ID',
      fields: [
        { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
        { name: 'Title', type: 'TEXT', required: true },
      ],
    };
    const h = await createHarness({
      upstream,
      config: {
        regions: [
          regionFor('default', upstream.apiUrl, { profile: 'hosted', workspace: [tickets] }),
        ],
      },
      deps: { recordChanges: bus },
    });
    try {
      const { cookie } = await h.login();
      upstream.route = (req, res) => {
        req.resume();
        req.on('end', () => {
          const body = JSON.stringify({ 'Ticket ID': 'SUP-9', Title: 'Printer' });
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(body);
        });
      };
      const res = await h.api('/api/v1/apps/support-tickets', {
        cookie,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '19' },
        body: JSON.stringify({ Title: 'Printer' }),
      });
      expect(res.status).toBe(201);
      expect(seen.map((c) => [c.kind, c.alias, c.recordId])).toEqual([
        ['created', 'support-tickets', 'SUP-9'],
      ]);
    } finally {
      await h.close();
      await upstream.close();
    }
  });
});
