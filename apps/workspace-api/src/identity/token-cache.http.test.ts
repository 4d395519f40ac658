// The token cache (identity/token-cache.ts) through HTTP: a valid token is looked up once, and
// every way a token stops being valid still takes effect at once: through the API, or written to
// the database by another process (the CLI, a second instance), announced by migration 0004's
// triggers. On PostgreSQL (TEST_DATABASE_URL) also: a lost listening connection turns the cache off
// until it is back.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';
import { createCredential, insertUser, issueToken } from './credentials.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function freshToken(label: string) {
  const user = await insertUser(h.db, {
    email: `${label}-${Date.now()}@example.com`,
    firstName: 'Tess',
    lastName: label,
  });
  const credential = await createCredential(h.db, user.id, label);
  const token = await issueToken(h.db, credential.clientId, user.id, 3600);
  return { user, credential, token };
}

const me = (token: string) => h.request('GET', '/v1/me', { token });

/** Another process's change: straight to the database, not through this app. */
async function expectRefusedSoon(token: string) {
  // The notification arrives after the writer's commit; on PGlite at once, on PostgreSQL within
  // a few milliseconds on the listening connection.
  await expect
    .poll(async () => (await me(token)).status, { timeout: 2_000, interval: 10 })
    .toBe(401);
}

describe('token lookups remembered between changes', () => {
  it('serves a valid token from memory after its first lookup', async () => {
    const { token } = await freshToken('cached');
    expect(h.deps.tokenCache.active).toBe(true);
    const before = h.deps.tokenCache.size;
    expect((await me(token)).status).toBe(200);
    expect(h.deps.tokenCache.size).toBe(before + 1);
    expect((await me(token)).status).toBe(200);
    expect(h.deps.tokenCache.size).toBe(before + 1);
  });

  it('never remembers an invalid token', async () => {
    const before = h.deps.tokenCache.size;
    for (let i = 0; i < 5; i += 1) expect((await me(`not-a-token-${i}`)).status).toBe(401);
    expect(h.deps.tokenCache.size).toBe(before);
  });

  it('refuses the next request after the API deactivates the user', async () => {
    const { user, token } = await freshToken('deactivated');
    expect((await me(token)).status).toBe(200);
    const res = await h.request('POST', `/v1/users/${user.id}/deactivate`, {
      token: h.tokens.admin,
    });
    expect(res.status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it('refuses the next request after the API revokes the credential', async () => {
    const { credential, token } = await freshToken('revoked');
    expect((await me(token)).status).toBe(200);
    const res = await h.request('POST', `/v1/credentials/${credential.clientId}/revoke`, {
      token: h.tokens.admin,
    });
    expect(res.status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it('refuses a token revoked, a credential revoked or a user deactivated by another process', async () => {
    const a = await freshToken('sql-token');
    const b = await freshToken('sql-credential');
    const c = await freshToken('sql-user');
    for (const { token } of [a, b, c]) expect((await me(token)).status).toBe(200);

    await sql`update tokens set revoked = true where client_id = ${a.credential.clientId}`.execute(
      h.db,
    );
    await expectRefusedSoon(a.token);
    await sql`update credentials set revoked_at = now() where client_id = ${b.credential.clientId}`.execute(
      h.db,
    );
    await expectRefusedSoon(b.token);
    await sql`update users set status = 'INACTIVE' where id = ${c.user.id}`.execute(h.db);
    await expectRefusedSoon(c.token);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'looks every token up while the listening connection is down, and caches again once it is back',
    async () => {
      const { token } = await freshToken('listener');
      expect((await me(token)).status).toBe(200);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where query ilike 'listen wsc_auth%' and pid <> pg_backend_pid()`.execute(h.db);
      await expect.poll(() => h.deps.tokenCache.active, { timeout: 2_000 }).toBe(false);
      expect(h.deps.tokenCache.size).toBe(0);
      expect((await me(token)).status).toBe(200);
      expect(h.deps.tokenCache.size).toBe(0);
      // Reconnects within a second or so.
      await expect.poll(() => h.deps.tokenCache.active, { timeout: 5_000 }).toBe(true);
      expect((await me(token)).status).toBe(200);
      expect(h.deps.tokenCache.size).toBe(1);
    },
  );
});
