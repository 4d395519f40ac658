// The hosted profile on a real loopback port behind Stoplight Prism (`prism proxy --errors` over the
// repo's copy of the published OpenAPI): every operation we implement goes through it, and any
// request or reply outside the published contract shows up as a Prism violation. Multipart upload
// is the exception (Prism corrupts binary bodies): it goes to the API directly.
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Prism } from '@wsc/api-client/testing/prism';
import { startPrism } from '@wsc/api-client/testing/prism';

import type { Harness } from './harness.ts';
import { insertRecords } from '../src/records/records.ts';
import { DEMO_GROUPS } from '../src/workspace/demo-workspace.ts';
import { createHarness } from './harness.ts';

let h: Harness;
let server: ServerType;
let api: string;
let prism: Prism;
let admin: string;
let member: string;
let ticket: string;

beforeAll(async () => {
  h = await createHarness({ profile: 'hosted' });
  const definition = h.deps.workspace.find('apps', 'support-tickets');
  if (!definition) throw new Error('no tickets');
  const [row] = await insertRecords(
    h.db,
    definition,
    [{ Title: 'Through Prism', Status: 'New' }],
    h.users.admin.email,
  );
  ticket = row?.id ?? '';
  server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  prism = await startPrism({ mode: 'proxy', upstream: api });
}, 90_000);

afterAll(async () => {
  await prism?.stop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await h?.close();
});

type Reply = { status: number; type: string; text: string; json: unknown };

/**
 * One request through Prism (or straight to the API with `direct`), asserting its status; the
 * body is in the failure message, so a Prism error (its own 401/422/500) says what it found.
 */
async function call(
  method: string,
  path: string,
  expected: number,
  init: { token?: string; json?: unknown; text?: string; direct?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    body = init.text;
  }
  const origin = init.direct ? api : prism.origin;
  const res = await fetch(`${origin}${path}`, { method, headers, ...(body ? { body } : {}) });
  const text = await res.text();
  const type = res.headers.get('Content-Type') ?? '';
  expect(res.status, `${method} ${path}: ${text}`).toBe(expected);
  return {
    status: res.status,
    type,
    text,
    json: type.includes('json') && text ? JSON.parse(text) : undefined,
  };
}

const asObject = (reply: Reply) => reply.json as Record<string, unknown>;
const itemsOf = (reply: Reply) => (asObject(reply).items ?? []) as Array<Record<string, unknown>>;

describe('the hosted profile through Prism', () => {
  it('keeps every operation inside the published contract', { timeout: 120_000 }, async () => {
    // ---- token (JSON body) ------------------------------------------------------------------
    const token = async (who: 'admin' | 'member') => {
      const { clientId, clientSecret } = h.credentials[who];
      const reply = await call('POST', '/oauth/token', 201, {
        json: {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        },
      });
      return String(asObject(reply).access_token);
    };
    admin = await token('admin');
    member = await token('member');

    // ---- records: apps, tasks, transactions; getElement and element records ------------------
    const tickets = '/v1/apps/support-tickets';
    const created = asObject(
      await call('POST', tickets, 201, {
        token: member,
        json: { Title: 'Second', Status: 'Open', Severity: 'High' },
      }),
    );
    const second = String(created['Ticket ID']);
    const firstPage = await call(
      'GET',
      `${tickets}?first=1&filter=Status!in=Closed:Resolved`,
      200,
      {
        token: member,
      },
    );
    const cursor = String((asObject(firstPage).paging as Record<string, unknown>).end_cursor);
    const nextPage = await call(
      'GET',
      `${tickets}?first=1&after=${encodeURIComponent(cursor)}`,
      200,
      {
        token: member,
      },
    );
    expect(itemsOf(nextPage)).toHaveLength(1);
    await call('GET', `${tickets}?last=1`, 200, { token: member });
    await call('GET', `${tickets}/${second}`, 200, { token: member });
    await call('PUT', `${tickets}/${second}`, 200, { token: member, json: { Status: 'Pending' } });

    const taskRecord = asObject(
      await call('POST', '/v1/tasks/tasks', 201, {
        token: member,
        json: { Title: 'Call back', Status: 'To Do' },
      }),
    );
    const task = String(taskRecord['Task Key']);
    await call('GET', '/v1/tasks/tasks', 200, { token: member });
    await call('GET', `/v1/tasks/tasks/${task}`, 200, { token: member });
    await call('PUT', `/v1/tasks/tasks/${task}`, 200, { token: member, json: { Status: 'Done' } });

    await call('POST', '/v1/transactions/refunds', 201, {
      token: admin,
      json: { Reason: 'Damaged', Amount: '12.50', Currency: 'USD', Status: 'Requested' },
    });
    const refunds = await call('GET', '/v1/transactions/refunds?filter=Amount=gt=10', 200, {
      token: admin,
    });
    expect(asObject(refunds).total).toBe(1);
    // Refunds publish no handle: they are found by their audit fields instead.
    const refund = await h.db
      .selectFrom('records')
      .select('id')
      .where('alias', '=', 'refunds')
      .executeTakeFirstOrThrow();
    await call('GET', `/v1/transactions/refunds/${refund.id}`, 200, { token: admin });
    await call('PUT', `/v1/transactions/refunds/${refund.id}`, 200, {
      token: admin,
      json: { Status: 'Approved' },
    });

    const aspect = asObject(await call('GET', '/v1/elements/customers', 200, { token: member }));
    expect(aspect.__typename).toBe('AspectElement');
    const customer = String(
      asObject(
        await call('POST', '/v1/elements/customers', 201, {
          token: member,
          json: { Name: 'Acme', Plan: 'Business' },
        }),
      )['Customer ID'],
    );
    await call('GET', `/v1/elements/customers/${customer}`, 200, { token: member });
    await call('PUT', `/v1/elements/customers/${customer}`, 200, {
      token: member,
      json: { Seats: '25' },
    });

    // ---- related items ------------------------------------------------------------------------
    const related = `${tickets}/${ticket}/related-items`;
    await call('POST', related, 201, { token: member, json: { id: customer, alias: 'customers' } });
    await call('POST', related, 201, { token: member, json: { id: task } });
    const relatedList = await call('GET', related, 200, { token: member });
    expect(itemsOf(relatedList).map((item) => item.id)).toEqual([customer, task]);
    await call('DELETE', `${related}/${task}`, 200, { token: member });

    // ---- attachments (upload straight to the API) ---------------------------------------------
    const attachments = `${tickets}/${ticket}/attachments`;
    const form = new FormData();
    form.append('file', new File(['log line\n'], 'app.log', { type: 'text/plain' }));
    form.append('description', 'Server log');
    const upload = await fetch(`${api}${attachments}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member}` },
      body: form,
    });
    expect(upload.status).toBe(202);
    expect(await upload.text()).toBe('');
    await call('POST', `${attachments}/url-links`, 201, {
      token: member,
      json: { url: 'https://status.example.com/incidents/7', description: 'Incident' },
    });
    const attachmentList = (await call('GET', attachments, 200, { token: member })).json as Array<
      Record<string, unknown>
    >;
    expect(attachmentList).toHaveLength(2);
    const [file, link] = attachmentList;
    await call('GET', `${attachments}/${String(file?.id)}`, 200, { token: member });
    const content = await call('GET', String(file?.contentUrl), 200, { token: member });
    expect(content.text).toBe('log line\n');
    await call('DELETE', `${attachments}/${String(link?.id)}`, 200, { token: member });

    // ---- watchers (a group among them) --------------------------------------------------------
    const watchers = `${tickets}/${ticket}/watchers`;
    const tier2 = await h.db
      .selectFrom('groups')
      .select('id')
      .where('name', '=', DEMO_GROUPS.tier2)
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('watchers')
      .values({
        id: crypto.randomUUID(),
        record_id: ticket,
        group_id: tier2.id,
        created_at: new Date(),
      })
      .execute();
    await call('POST', watchers, 201, {
      token: member,
      json: { users: ['agent@example.com', 'admin@example.com'] },
    });
    const watcherList = await call('GET', `${watchers}?first=2`, 200, { token: member });
    expect(itemsOf(watcherList).map((item) => (item.target as { type: string }).type)).toEqual([
      'Group',
      'User',
    ]);
    await call('DELETE', watchers, 200, { token: member, json: { users: ['admin@example.com'] } });

    // ---- comments (text/plain) ----------------------------------------------------------------
    const comments = `${tickets}/${ticket}/comment`;
    const commentId = await call('POST', comments, 201, { token: member, text: 'Looking into it' });
    expect(commentId.type).toMatch(/^text\/plain/);
    const commentList = await call('GET', `${comments}?first=10`, 200, { token: member });
    expect(itemsOf(commentList).map((item) => item.id)).toEqual([commentId.text]);

    // ---- users ---------------------------------------------------------------------------------
    await call('GET', `/v1/users?filter=${encodeURIComponent('email==agent@example.com')}`, 200, {
      token: member,
    });
    await call('GET', '/v1/users?first=2', 200, { token: member });
    await call('GET', `/v1/users/${h.users.inactive.id}`, 200, { token: member });
    const newUser = asObject(
      await call('POST', '/v1/users', 201, {
        token: admin,
        json: { email: 'prism@example.com', firstName: 'Pri', lastName: 'Sm' },
      }),
    );
    await call('POST', `/v1/users/${String(newUser.id)}/deactivate`, 200, { token: admin });

    // ---- groups --------------------------------------------------------------------------------
    const groups = itemsOf(await call('GET', '/v1/groups?first=10', 200, { token: member }));
    const tier1 = groups.find((group) => group.name === DEMO_GROUPS.tier1);
    await call('GET', `/v1/groups/${tier2.id}`, 200, { token: member });
    await call('GET', `/v1/groups/${String(tier1?.id)}`, 200, { token: member });
    const members = `/v1/groups/${tier2.id}/users`;
    await call('POST', members, 201, { token: admin, json: { userIds: [h.users.billing.id] } });
    await call('GET', `${members}?first=5`, 200, { token: member });
    await call('DELETE', members, 200, { token: admin, json: { userIds: [h.users.billing.id] } });

    // ---- errors --------------------------------------------------------------------------------
    await call('GET', `${tickets}/SUP-99999`, 404, { token: member });
    await call('POST', tickets, 422, { token: member, json: { Status: 'Bogus' } });
    await call('GET', `${tickets}?filter=${encodeURIComponent('Status=out=New')}`, 400, {
      token: member,
    });
    // Prism answers a request without credentials itself; a wrong token reaches the API.
    await call('GET', '/v1/users', 401, { token: 'not-a-valid-token' });
    await call('POST', '/v1/users', 403, {
      token: member,
      json: { email: 'nope@example.com', firstName: 'No', lastName: 'Pe' },
    });

    expect(prism.violations()).toEqual([]);
  });
});
