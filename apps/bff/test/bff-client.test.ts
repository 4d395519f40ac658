// The console's BFF client (`createBffClient` of @wsc/api-client) against the real BFF: the routes
// answer what the shared schemas parse, and refusals arrive as the ApiError the console narrows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BffClient, Definition } from '@wsc/api-client';
import { createBffClient } from '@wsc/api-client';

import type { Harness } from './harness.ts';
import { SESSION_COOKIE } from '../src/lib/sessions.ts';
import { CLIENT_ID, CLIENT_SECRET } from './fake-upstream.ts';
import { createHarness } from './harness.ts';

const TICKETS: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  fields: [{ name: 'Title', type: 'TEXT', required: true }],
};

let h: Harness;
let bff: BffClient;

beforeAll(async () => {
  h = await createHarness();
  h.upstream.route = (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [TICKETS] }));
  };
  // A browser's cookie jar over `app.request`, from an address of its own (the sign-in limit).
  let cookie = '';
  bff = createBffClient({
    baseUrl: 'http://bff.test',
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', `${SESSION_COOKIE}=${cookie}`);
      const res = await h.request(
        url.pathname + url.search,
        { ...init, headers },
        { incoming: { socket: { remoteAddress: '10.250.0.1' } } },
      );
      const set = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '');
      if (set) cookie = set[1] ?? '';
      return res;
    },
  });
});
afterAll(() => h.close());

describe('createBffClient against the BFF', () => {
  it('signs in, reads the session and definitions, keeps saved views, and signs out', async () => {
    expect((await bff.config()).regions[0]?.id).toBe('default');
    await expect(bff.session()).rejects.toMatchObject({ status: 401 });

    const login = await bff.login({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      region: 'default',
    });
    expect(login.capabilities.profile).toBe('extended');
    expect((await bff.session()).user.clientId).toBe(CLIENT_ID);
    expect((await bff.definitions()).items.map((d) => d.alias)).toEqual(['support-tickets']);

    const view = await bff.savedViews.create({
      name: 'Open',
      recordType: 'apps',
      alias: 'support-tickets',
      filter: 'Status==Open',
    });
    expect(view).toMatchObject({ name: 'Open', recordType: 'apps', sort: '', columns: [] });
    expect(await bff.savedViews.get(view.id)).toEqual(view);
    const renamed = await bff.savedViews.update(view.id, { name: 'Still open' });
    expect(renamed.name).toBe('Still open');
    expect((await bff.savedViews.setDefault(view.id, true)).isDefault).toBe(true);
    expect((await bff.savedViews.setDefault(view.id, false)).isDefault).toBe(false);
    const list = await bff.savedViews.list({ recordType: 'apps', alias: 'support-tickets' });
    expect(list.items.map((v) => v.id)).toEqual([view.id]);

    await expect(
      bff.savedViews.create({ name: 'still OPEN', recordType: 'apps', alias: 'support-tickets' }),
    ).rejects.toMatchObject({
      status: 409,
      errors: [{ field: 'name', message: 'A view with this name already exists' }],
    });
    await expect(bff.savedViews.update(view.id, { filter: 'Status==' })).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'filter' }],
    });

    await bff.savedViews.delete(view.id);
    await expect(bff.savedViews.get(view.id)).rejects.toMatchObject({ status: 404 });
    await bff.logout();
    await expect(bff.session()).rejects.toMatchObject({ status: 401 });
  });

  it('names the fields of a refused sign-in', async () => {
    await expect(
      bff.login({ clientId: ' ', clientSecret: 'x', region: 'nowhere' }),
    ).rejects.toMatchObject({
      status: 400,
      errors: expect.arrayContaining([
        expect.objectContaining({ field: 'clientId' }),
        expect.objectContaining({ field: 'region' }),
      ]) as unknown,
    });
  });
});
