// Who did it is never borrowed (issue 26, review H1 and I3): in the hosted profile, against the REAL
// workspace API in its hosted profile, a member who types the admin's email at sign-in writes a
// record. The record history, the administrators' log, its CSV and the live events must name that
// change as unverified (identity `self`, the typed email marked), never with the admin's looked-up
// name; the log's `user` filter matches the stable actor id only; with an identities file, the
// email of a client the file does not list is ignored (identity `none`), and a client id is never
// shown to others (a pseudonym of the owner id instead).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import type { HistoryEntry } from '@wsc/api-client/bff-history';
import { LoginResultSchema } from '@wsc/api-client';
import { HISTORY_CSV_HEADER, HistoryPageSchema } from '@wsc/api-client/bff-history';

import type { EventStream } from '../../../test/event-stream.ts';
import type { Harness } from '../../../test/harness.ts';
import { openEventStream } from '../../../test/event-stream.ts';
import { createHarness } from '../../../test/harness.ts';
import { parseCsv } from '../../../test/parse-csv.ts';
import { proxiedWrite, startRealApi } from '../../../test/real-api.ts';
import { regionFor } from '../../lib/config.ts';
import { ownerIdFor } from '../../lib/identities.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';

/** Support tickets as an operator's workspace file describes them (hosted: the handle is a field). */
const TICKETS_DEFINITION: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  titleField: 'Title',
  fields: [
    { name: 'Ticket ID', type: 'TEXT', required: false },
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Status', type: 'TEXT', required: false },
    { name: 'Priority', type: 'TEXT', required: false },
  ],
};

let real: Awaited<ReturnType<typeof startRealApi>>;
/** A hosted BFF without an identities file: anyone may type an email (shown as unverified). */
let open: Harness;
/** A hosted BFF on the same store with an identities file naming only the admin. */
let named: Harness;
let ticket: string;

beforeAll(async () => {
  real = await startRealApi({ profile: 'hosted' });
  const created = await real.api.request('POST', '/v1/apps/support-tickets', {
    token: real.api.tokens.admin,
    body: { Title: 'Borrowed names', Status: 'New' },
  });
  expect(created.status).toBe(201);
  ticket = (created.json as Record<string, string>)['Ticket ID'] ?? '';
  expect(ticket).toMatch(/^SUP-\d+$/);
  const regions = [
    regionFor('default', real.apiUrl, { profile: 'hosted', workspace: [TICKETS_DEFINITION] }),
  ];
  open = await createHarness({ upstream: real.upstream, socket: true, config: { regions } });
  named = await createHarness({
    upstream: real.upstream,
    store: open.store,
    config: {
      regions,
      identities: [
        {
          clientId: real.api.credentials.admin.clientId,
          email: 'admin@example.com',
          role: 'ADMIN',
        },
      ],
    },
  });
}, 60_000);
afterAll(async () => {
  await open?.close();
  await named?.close();
  await real?.close();
});

async function signIn(h: Harness, who: 'admin' | 'member', email?: string) {
  const { res, cookie } = await h.login({ ...real.api.credentials[who], email });
  expect(res.status).toBe(200);
  return { cookie, user: LoginResultSchema.parse(await res.json()).user };
}

async function put(h: Harness, cookie: string, fields: Record<string, string>) {
  const path = `/api/v1/apps/support-tickets/${ticket}`;
  const res = await proxiedWrite(h, cookie, 'PUT', path, fields, { source: 'editor' });
  expect(res.status).toBe(200);
}

async function newest(h: Harness, cookie: string): Promise<HistoryEntry> {
  const res = await h.api(`/bff/history/apps/support-tickets/${ticket}?first=1`, { cookie });
  expect(res.status).toBe(200);
  const [entry] = HistoryPageSchema.parse(await res.json()).items;
  if (!entry) throw new Error('no history entry');
  return entry;
}

const memberOwner = () => ownerIdFor('default', real.api.credentials.member.clientId);

describe('a typed email (identity self) never borrows the name it looks up', () => {
  it('the history, the live events, the admin log and its CSV mark it unverified', async () => {
    const mallory = await signIn(open, 'member', 'admin@example.com');
    // The lookup found the admin: the session itself may know the name, others never see it.
    expect(mallory.user).toMatchObject({ identity: 'self', firstName: 'Ada' });
    const watcher = await signIn(open, 'admin', 'someone@example.com');
    const base = await open.listen();
    let stream: EventStream | undefined;
    try {
      stream = await openEventStream(base, {
        cookie: `${SESSION_COOKIE}=${watcher.cookie}`,
        origin: open.origin(),
      });
      await put(open, mallory.cookie, { Priority: '1' });
      const changed = await stream.next('record-changed', (m) => m.data.recordId === ticket);
      expect(changed.data.actor).toEqual({
        id: memberOwner(),
        name: 'admin@example.com (unverified)',
      });
      expect(changed.data).toMatchObject({ identity: 'self' });
    } finally {
      stream?.close();
    }

    const entry = await newest(open, mallory.cookie);
    expect(entry.actor).toEqual({ id: memberOwner(), name: 'admin@example.com (unverified)' });
    expect(entry).toMatchObject({ identity: 'self', field: 'Priority' });

    // The administrators' log (the operator's admin on the BFF with the identities file).
    const admin = await signIn(named, 'admin');
    const byName = await named.api('/bff/history?user=Ada%20Admin', { cookie: admin.cookie });
    expect(byName.status).toBe(200);
    const borrowed = HistoryPageSchema.parse(await byName.json()).items.filter(
      (e) => e.actor.id === memberOwner(),
    );
    expect(borrowed).toEqual([]);
    const byId = await named.api(`/bff/history?user=${memberOwner()}`, { cookie: admin.cookie });
    const mine = HistoryPageSchema.parse(await byId.json()).items;
    expect(mine.map((e) => [e.actor.name, e.identity])).toContainEqual([
      'admin@example.com (unverified)',
      'self',
    ]);
    const csv = await named.api(`/bff/history/export.csv?user=${memberOwner()}`, {
      cookie: admin.cookie,
    });
    const [header, ...rows] = parseCsv(await csv.text());
    expect(header?.at(-1)).toBe(HISTORY_CSV_HEADER.at(-1));
    expect(HISTORY_CSV_HEADER.at(-1)).toBe('Identity');
    const row = rows.find((r) => r[7] === 'Priority');
    expect(row?.slice(1, 3)).toEqual([memberOwner(), 'admin@example.com (unverified)']);
    expect(row?.at(-1)).toBe('self');
    expect(rows.flat().join('\n')).not.toContain('Ada Admin');
  });

  it('presence names the person as unverified, with the identity kind', async () => {
    const mallory = await signIn(open, 'member', 'admin@example.com');
    const watcher = await signIn(open, 'admin', 'someone@example.com');
    const base = await open.listen();
    const cookie = (value: string) => ({
      cookie: `${SESSION_COOKIE}=${value}`,
      origin: open.origin(),
    });
    const theirs = await openEventStream(base, cookie(mallory.cookie));
    const mine = await openEventStream(base, cookie(watcher.cookie));
    try {
      const res = await open.api('/bff/presence', {
        cookie: mallory.cookie,
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin: open.origin() },
        body: JSON.stringify({
          connectionId: theirs.hello.connectionId,
          record: { recordType: 'apps', alias: 'support-tickets', recordId: ticket, editing: true },
        }),
      });
      expect(res.status).toBe(204);
      const seen = await mine.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.upserts.length > 0,
      );
      const [entry] = seen.data.kind === 'delta' ? seen.data.upserts : [];
      expect(entry?.user).toEqual({ id: memberOwner(), name: 'admin@example.com (unverified)' });
      expect(entry).toMatchObject({ identity: 'self' });
    } finally {
      theirs.close();
      mine.close();
    }
  });
});

describe('with an identities file', () => {
  it('ignores the email an unlisted client types: identity none, and others never see its client id', async () => {
    const mallory = await signIn(named, 'member', 'admin@example.com');
    expect(mallory.user).toEqual({
      clientId: real.api.credentials.member.clientId,
      role: 'UNKNOWN',
      identity: 'none',
    });
    await put(named, mallory.cookie, { Priority: '2' });
    const entry = await newest(named, mallory.cookie);
    expect(entry.actor).toEqual({
      id: memberOwner(),
      name: `API client ${memberOwner().slice(0, 8)}`,
    });
    expect(entry.identity).toBe('none');
    expect(JSON.stringify(entry)).not.toContain(real.api.credentials.member.clientId);
  });
});
