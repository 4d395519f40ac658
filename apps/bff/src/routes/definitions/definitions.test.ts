// `GET /bff/definitions` in both profiles: the upstream's list (extended), and the region's
// workspace description from the operator's file merged with the store (hosted).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import { DefinitionListSchema } from '@wsc/api-client';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import { startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';

const TICKETS: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  titleField: 'Title',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
  ],
};
const CUSTOMERS: Definition = {
  recordType: 'elements',
  alias: 'customers',
  name: 'Customers',
  handle: 'CUS',
  fields: [{ name: 'Name', type: 'TEXT', required: true }],
};

let extended: Harness;
let hosted: Harness;
let hostedUpstream: FakeUpstream;

beforeAll(async () => {
  extended = await createHarness();
  hostedUpstream = await startFakeUpstream({ mode: 'hosted' });
  // Region `eu`: workspace.test.ts stores definitions for `default` in the same store.
  hosted = await createHarness({
    upstream: hostedUpstream,
    config: {
      regions: [
        regionFor('eu', hostedUpstream.apiUrl, {
          profile: 'hosted',
          workspace: [TICKETS, CUSTOMERS],
        }),
      ],
    },
  });
});
afterAll(async () => {
  await extended.close();
  await hosted.close();
  await hostedUpstream.close();
});
beforeEach(() => {
  extended.upstream.reset();
  hostedUpstream.reset();
});

/** Our API's `GET /v1/definitions`: one item without handleField (an older server). */
function definitionsRoute(status = 200) {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (req.url !== '/v1/definitions') {
      res.writeHead(404).end();
      return;
    }
    const body =
      status === 200
        ? {
            items: [
              { ...TICKETS, handleField: 'id' },
              {
                recordType: 'tasks',
                alias: 'follow-ups',
                name: 'Follow-ups',
                handle: 'FUP',
                fields: [],
              },
            ],
          }
        : { type: 'about:blank', title: 'Nope', status, detail: `upstream said ${status}` };
    res.writeHead(status, {
      'content-type': status === 200 ? 'application/json' : 'application/problem+json',
    });
    res.end(JSON.stringify(body));
  };
}

describe('GET /bff/definitions (extended)', () => {
  it("passes the upstream's list on, giving each item a handleField, not cached", async () => {
    const { cookie } = await extended.login();
    extended.upstream.route = definitionsRoute();
    const res = await extended.api('/bff/definitions', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = DefinitionListSchema.parse(await res.json());
    expect(body.items.map((d) => [d.alias, d.handleField])).toEqual([
      ['support-tickets', 'id'],
      ['follow-ups', 'id'],
    ]);
    const call = extended.upstream.apiRequests().find((r) => r.url === '/v1/definitions');
    expect(call?.headers.authorization).toMatch(/^Bearer tok-/);
  });

  it('refreshes the token once after an upstream 401 and replays', async () => {
    const { cookie } = await extended.login();
    extended.upstream.route = definitionsRoute();
    extended.upstream.revokeTokens();
    const calls = extended.upstream.tokenCalls;
    const reads = () =>
      extended.upstream.apiRequests().filter((r) => r.url === '/v1/definitions').length;
    // The sign-in read them once already, with the token since revoked.
    const before = reads();
    const res = await extended.api('/bff/definitions', { cookie });
    expect(res.status).toBe(200);
    expect(extended.upstream.tokenCalls).toBe(calls + 1);
    expect(reads() - before).toBe(2);
  });

  it('ends the session when the credentials themselves are revoked', async () => {
    const { cookie } = await extended.login();
    extended.upstream.revokeTokens();
    extended.upstream.tokenFailure = 401;
    extended.upstream.tokenFailureBody = { error: 'invalid_client' };
    const res = await extended.api('/bff/definitions', { cookie });
    expect(res.status).toBe(401);
    extended.upstream.tokenFailure = undefined;
    expect((await extended.api('/bff/session', { cookie })).status).toBe(401);
  });

  it('answers upstream errors as problem+json with their status', async () => {
    const { cookie } = await extended.login();
    for (const status of [403, 404, 500]) {
      extended.upstream.route = definitionsRoute(status);
      const res = await extended.api('/bff/definitions', { cookie });
      expect(res.status, String(status)).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({ status, detail: `upstream said ${status}` });
    }
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    const quick = await createHarness({
      upstream: extended.upstream,
      config: { upstreamTimeoutMs: 300 },
    });
    const { cookie } = await quick.login();
    extended.upstream.route = (req) => {
      req.resume();
    };
    const started = Date.now();
    const res = await quick.api('/bff/definitions', { cookie });
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('needs a session', async () => {
    expect((await extended.api('/bff/definitions')).status).toBe(401);
    expect(extended.upstream.requests).toHaveLength(0);
  });
});

describe('GET /bff/definitions (hosted)', () => {
  it('serves the workspace file and the stored definitions, elements not listable, without asking upstream', async () => {
    const { cookie } = await hosted.login({ region: 'eu' });
    const alias = `stored-${Date.now().toString(36)}`;
    const stored: Definition = {
      recordType: 'tasks',
      alias,
      name: 'Stored Tasks',
      handle: 'TSK',
      fields: [{ name: 'Title', type: 'TEXT', required: true }],
    };
    const put = await hosted.api(`/bff/workspace/definitions/tasks/${alias}`, {
      method: 'PUT',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stored),
    });
    expect(put.status).toBe(200);
    hostedUpstream.requests.length = 0;

    const res = await hosted.api('/bff/definitions', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = DefinitionListSchema.parse(await res.json());
    expect(body.items.slice(0, 2)).toEqual([TICKETS, { ...CUSTOMERS, listable: false }]);
    expect(body.items).toContainEqual(stored);
    expect(hostedUpstream.apiRequests()).toHaveLength(0);
  });
});
