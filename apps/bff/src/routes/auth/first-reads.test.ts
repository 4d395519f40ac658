// The sign-in reads what the console shows first (issue 27 item 4): the definitions and the first
// page of the list the person signs in to, beside `/me` rather than after it, answered with the
// session; a read that fails or is slow is left out and the sign-in goes on; the page's records
// become the session's copies, so a save right after sign-in costs one upstream request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Definition, LoginResult } from '@wsc/api-client';
import {
  capabilitiesFor,
  LoginResultSchema,
  SavedViewListSchema,
  SavedViewSchema,
} from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import type { RecordStore } from '../../../test/record-store-route.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { sendJson } from '../../../test/json-request.ts';
import { recordStore } from '../../../test/record-store-route.ts';
import { openStore } from '../../db/store.ts';
import { defaultConfig, regionFor } from '../../lib/config.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';

const SUPPORT: Definition = {
  recordType: 'apps',
  alias: 'support',
  name: 'Support',
  handle: 'SUP',
  fields: [
    { name: 'Title', type: 'TEXT', required: false },
    { name: 'Status', type: 'TEXT', required: false },
  ],
} as Definition;

/** The console page signed in to: the support list, filtered and sorted. */
const NEXT = `/records/apps/support?filter=${encodeURIComponent('Status==New')}&sort=${encodeURIComponent('-Title')}`;

function answer(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The upstream's definitions, then the record store for everything else. */
function withDefinitions(store: RecordStore) {
  return (req: IncomingMessage, res: ServerResponse, rec: Parameters<RecordStore['route']>[2]) => {
    if (req.url === '/v1/definitions') {
      req.resume();
      answer(res, 200, { items: [SUPPORT] });
      return;
    }
    store.route(req, res, rec);
  };
}

describe('sign-in with the first page (extended)', () => {
  let h: Harness;
  let store: RecordStore;
  const changes: RecordChange[] = [];
  const bus = createRecordChangeBus();
  bus.subscribe((change) => changes.push(change));

  beforeAll(async () => {
    h = await createHarness({ deps: { recordChanges: bus } });
    // The region's profile is detected by the first sign-in; the reads go beside `/me` once known.
    await h.login();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.upstream.reset();
    h.upstream.meGate = undefined;
    store = recordStore();
    store.records.set('SUP-1', { id: 'SUP-1', Title: 'Printer', Status: 'New' });
    store.records.set('SUP-2', { id: 'SUP-2', Title: 'Laptop', Status: 'New' });
    store.versions.set('SUP-1', 1);
    h.upstream.route = withDefinitions(store);
    changes.length = 0;
  });

  const asked = (from = 0) =>
    h.upstream
      .apiRequests()
      .slice(from)
      .map((r) => `${r.method} ${r.url}`);

  it('answers the definitions and the asked page with the session, read while /me was still held', async () => {
    // `/me` waits until the page's request has reached the upstream: read after `/me`, it never
    // would, and the sign-in would answer only once the fallback below let `/me` go.
    let released = false;
    let release: () => void = () => undefined;
    h.upstream.meGate = new Promise<void>((resolve) => {
      release = () => {
        released = true;
        resolve();
      };
    });
    const fallback = setTimeout(() => release(), 10_000);
    let pageWhileMeHeld = false;
    const route = h.upstream.route;
    h.upstream.route = (req, res, rec) => {
      if (req.url?.startsWith('/v1/apps/support?')) {
        pageWhileMeHeld = !released;
        release();
      }
      route(req, res, rec);
    };

    const { res, cookie } = await h.login({ next: NEXT });
    clearTimeout(fallback);
    expect(res.status).toBe(200);
    const body = LoginResultSchema.parse(await res.json());
    expect(pageWhileMeHeld).toBe(true);
    expect(body.capabilities).toEqual(capabilitiesFor('extended'));
    expect(body.definitions).toEqual([{ ...SUPPORT, handleField: 'id' }]);
    expect(body.firstPage?.page.items.map((item) => item.data)).toEqual([
      { id: 'SUP-1', Title: 'Printer', Status: 'New' },
      { id: 'SUP-2', Title: 'Laptop', Status: 'New' },
    ]);
    // The request the console would have sent itself.
    const page = asked().find((line) => line.startsWith('GET /v1/apps/support?'));
    const query = new URL(`http://x${page?.slice(4) ?? ''}`).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      filter: 'Status==New',
      sort: '-Title',
      first: '100',
    });
    // The session answers as GET /bff/session does.
    const session = await (await h.api('/bff/session', { cookie })).json();
    const { definitions: _d, firstPage: _p, views: _v, ...rest } = body;
    expect(session).toEqual(rest);
  });

  it('answers the person’s own saved views with the session, as GET /bff/views lists them', async () => {
    const first = await h.login();
    const created = await sendJson(h, '/bff/views', {
      cookie: first.cookie,
      method: 'POST',
      body: { name: `Signed in to ${randomUUID()}`, recordType: 'apps', alias: 'support' },
    });
    expect(created.status).toBe(201);
    const view = SavedViewSchema.parse(await created.json());

    const { res, cookie } = await h.login({ next: NEXT });
    const body = LoginResultSchema.parse(await res.json());
    const listed = SavedViewListSchema.parse(await (await h.api('/bff/views', { cookie })).json());
    expect(body.views).toEqual(listed.items);
    expect(body.views?.find((v) => v.id === view.id)).toEqual(view);
  });

  it('keeps the page as the session’s copies: a save right after costs one upstream request', async () => {
    const { cookie } = await h.login({ next: NEXT });
    const from = h.upstream.apiRequests().length;
    const res = await sendJson(h, '/api/v1/apps/support/SUP-1', {
      cookie,
      method: 'PUT',
      body: { Status: 'Open' },
    });
    expect(res.status).toBe(200);
    expect(asked(from)).toEqual(['PUT /v1/apps/support/SUP-1']);
    expect(changes.at(-1)?.fields.map((f) => [f.field, f.before, f.after])).toEqual([
      ['Status', 'New', 'Open'],
    ]);
  });

  it('signs in without the page when its read is refused, and without what was not asked', async () => {
    h.upstream.route = (req, res, rec) => {
      if (req.url?.startsWith('/v1/apps/support?')) {
        req.resume();
        answer(res, 400, { title: 'Bad Request', status: 400, detail: 'filter: unknown field' });
        return;
      }
      withDefinitions(store)(req, res, rec);
    };
    const refused = await h.login({ next: NEXT });
    expect(refused.res.status).toBe(200);
    const body: LoginResult = LoginResultSchema.parse(await refused.res.json());
    expect(body.firstPage).toBeUndefined();
    expect(body.definitions).toHaveLength(1);
    expect((await h.api('/bff/session', { cookie: refused.cookie })).status).toBe(200);

    const plain = await h.login();
    const plainBody = LoginResultSchema.parse(await plain.res.json());
    expect(plainBody.firstPage).toBeUndefined();
    expect(plainBody.definitions).toHaveLength(1);
  });

  it('does not wait for a slow page past its grace: the console reads it itself', async () => {
    const held: ServerResponse[] = [];
    h.upstream.route = (req, res, rec) => {
      if (req.url?.startsWith('/v1/apps/support?')) {
        req.resume();
        held.push(res);
        return;
      }
      withDefinitions(store)(req, res, rec);
    };
    const { res } = await h.login({ next: NEXT });
    expect(res.status).toBe(200);
    const body = LoginResultSchema.parse(await res.json());
    expect(held).toHaveLength(1);
    expect(body.firstPage).toBeUndefined();
    expect(body.definitions).toHaveLength(1);
    // The harness runs with the default grace, which BFF_SIGN_IN_READS_GRACE_MS can change.
    expect(defaultConfig().signInReadsGraceMs).toBe(1_000);
    for (const r of held) r.destroy();
  });

  it('says which list it read, as the console keys it', async () => {
    const { res } = await h.login({ next: NEXT });
    const body = LoginResultSchema.parse(await res.json());
    expect(body.firstPage?.request).toEqual({
      recordType: 'apps',
      alias: 'support',
      filter: 'Status==New',
      sort: '-Title',
      first: 100,
    });
  });

  it('reads no page for a page that is no records list, and answers 400 for a `next` too long', async () => {
    const { res } = await h.login({ next: '/users' });
    expect(res.status).toBe(200);
    expect(LoginResultSchema.parse(await res.json()).firstPage).toBeUndefined();
    expect(asked().some((line) => line.startsWith('GET /v1/apps/'))).toBe(false);

    h.upstream.reset();
    const long = await h.login({ next: `/records/apps/support?filter=${'x'.repeat(5000)}` });
    expect(long.res.status).toBe(400);
    const problem = (await long.res.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((e) => e.field)).toEqual(['next']);
    expect(h.upstream.requests).toHaveLength(0);
  });
});

describe('sign-in with the first page (hosted)', () => {
  it('drops the sort the service cannot do and answers the workspace description', async () => {
    const upstream = await startFakeUpstream({ mode: 'hosted' });
    const store = recordStore({ hosted: true });
    store.records.set('SUP-1', { 'Ticket ID': 'SUP-1', Title: 'Printer', Status: 'New' });
    upstream.route = store.route;
    const h = await createHarness({
      upstream,
      config: {
        regions: [
          regionFor('default', upstream.apiUrl, { profile: 'hosted', workspace: [SUPPORT] }),
        ],
      },
    });
    try {
      const { res, cookie } = await h.login({ email: 'ada@example.com', next: NEXT });
      expect(res.status).toBe(200);
      const body = LoginResultSchema.parse(await res.json());
      expect(body.capabilities.profile).toBe('hosted');
      // The workspace description as the definitions route answers it. The store is shared by
      // a worker's test files, and others add record types to this region: not only `support`.
      expect(body.definitions?.map((d) => d.alias)).toContain('support');
      const described = await h.api('/bff/definitions', { cookie });
      expect(body.definitions).toEqual(((await described.json()) as { items: unknown }).items);
      expect(body.firstPage?.page.items.map((item) => item.data['Ticket ID'])).toEqual(['SUP-1']);
      const page = upstream.apiRequests().find((r) => r.url.startsWith('/v1/apps/support?'));
      const query = new URL(`http://x${page?.url ?? ''}`).searchParams;
      expect(query.get('sort')).toBeNull();
      expect(query.get('filter')).toBe('Status==New');
      // The hosted service has no definitions operation: nothing asked for them.
      expect(upstream.apiRequests().some((r) => r.url.startsWith('/v1/definitions'))).toBe(false);
    } finally {
      await h.close();
      await upstream.close();
    }
  });
});

describe('sign-in when the saved views cannot be read', () => {
  it('signs in without them (the console asks itself) and says so in the log', async () => {
    // A store of its own without the views' tables: every read of them fails.
    const store = await openStore({ kind: 'memory' });
    await store.db.schema.dropTable('saved_view_shares').execute();
    await store.db.schema.dropTable('saved_views').execute();
    const h = await createHarness({ store });
    try {
      h.upstream.route = withDefinitions(recordStore());
      const { res, cookie } = await h.login();
      expect(res.status).toBe(200);
      const body = LoginResultSchema.parse(await res.json());
      expect(body.views).toBeUndefined();
      expect(body.definitions).toHaveLength(1);
      expect((await h.api('/bff/session', { cookie })).status).toBe(200);
      expect(
        h.logs.some(
          (line) =>
            line.includes('sign-in read left to the console') && line.includes('saved views'),
        ),
      ).toBe(true);
    } finally {
      await h.close();
      await store.close();
    }
  });
});
