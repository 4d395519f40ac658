// DESIGN.md section 6, "credentials": an administrator revokes one credential (API extension; the
// CLI's revoke-credentials is tested in cli.test.ts) without deactivating its user, and its tokens
// stop working at once. Expired and revoked tokens are purged.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import { CredentialSchema, MeSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { createCredential, issueToken } from '../../identity/credentials.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { purgeTokens, TokenPurger } from '../../oauth/token-purge.ts';

let h: Harness;
let hosted: Harness;

beforeAll(async () => {
  [h, hosted] = await Promise.all([createHarness(), createHarness({ profile: 'hosted' })]);
});
afterAll(() => Promise.all([h.close(), hosted.close()]));

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const tokenBody = (clientId: string, clientSecret: string) =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  }).toString();

describe('POST /v1/credentials/{clientId}/revoke (extension)', () => {
  it('revokes one credential and its tokens at once; the user and their other credentials work', async () => {
    const leaked = await createCredential(h.db, h.users.member.id, 'leaked');
    const kept = await createCredential(h.db, h.users.member.id, 'kept');
    // A token from the endpoint: the secret check now remembers this pair (oauth/secret-check.ts).
    const issued = await h.request('POST', '/oauth/token', {
      body: tokenBody(leaked.clientId, leaked.clientSecret),
      headers: FORM,
    });
    const token = (issued.json as { access_token: string }).access_token;
    expect((await h.request('GET', '/v1/me', { token })).status).toBe(200);

    const res = await h.request('POST', `/v1/credentials/${leaked.clientId}/revoke`, {
      token: h.tokens.admin,
    });
    expect(res.status).toBe(200);
    const credential = CredentialSchema.parse(res.json);
    expect(credential).toMatchObject({
      clientId: leaked.clientId,
      userId: h.users.member.id,
      label: 'leaked',
    });
    expect(credential.revokedAt).not.toBeNull();

    const after = await h.request('GET', '/v1/me', { token });
    expect(after.status).toBe(401);
    expect(ProblemSchema.parse(after.json).detail).toMatch(/revoked/);
    const again = await h.request('POST', '/oauth/token', {
      body: tokenBody(leaked.clientId, leaked.clientSecret),
      headers: FORM,
    });
    expect(again.status).toBe(401);

    // The user is still active, with their other credentials and tokens.
    const me = await h.request('GET', '/v1/me', { token: h.tokens.member });
    expect(MeSchema.parse(me.json).status).toBe('ACTIVE');
    const other = await h.request('POST', '/oauth/token', {
      body: tokenBody(kept.clientId, kept.clientSecret),
      headers: FORM,
    });
    expect(other.status).toBe(200);

    // Idempotent: the first revocation time stays.
    const twice = await h.request('POST', `/v1/credentials/${leaked.clientId}/revoke`, {
      token: h.tokens.admin,
    });
    expect(CredentialSchema.parse(twice.json).revokedAt).toBe(credential.revokedAt);
  });

  it('is for administrators only, 404 for an unknown id, absent in the hosted profile', async () => {
    const target = await createCredential(h.db, h.users.billing.id, 'x');
    const member = await h.request('POST', `/v1/credentials/${target.clientId}/revoke`, {
      token: h.tokens.member,
    });
    expect(member.status).toBe(403);
    const stillWorks = await h.request('POST', '/oauth/token', {
      body: tokenBody(target.clientId, target.clientSecret),
      headers: FORM,
    });
    expect(stillWorks.status).toBe(200);
    for (const id of ['wsc_nobody', 'a%20b']) {
      const unknown = await h.request('POST', `/v1/credentials/${id}/revoke`, {
        token: h.tokens.admin,
      });
      expect(unknown.status).toBe(404);
    }
    const absent = await hosted.request(
      'POST',
      `/v1/credentials/${hosted.credentials.member.clientId}/revoke`,
      { token: hosted.tokens.admin },
    );
    expect(absent.status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await h.request('GET', '/v1/openapi.json')).json as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths).toHaveProperty(['/v1/credentials/{clientId}/revoke']);
  });
});

describe('token purge', () => {
  async function tokenHashes() {
    const rows = await h.db
      .selectFrom('tokens')
      .select('token_hash')
      .where('client_id', '=', h.credentials.billing.clientId)
      .execute();
    return new Set(rows.map((row) => row.token_hash));
  }

  it('deletes expired and revoked tokens and keeps valid ones', async () => {
    const { clientId } = h.credentials.billing;
    const userId = h.users.billing.id;
    const valid = await issueToken(h.db, clientId, userId, 3600);
    const expired = await issueToken(h.db, clientId, userId, 3600);
    const revoked = await issueToken(h.db, clientId, userId, 3600);
    await h.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', sha256Hex(expired))
      .execute();
    await h.db
      .updateTable('tokens')
      .set({ revoked: true })
      .where('token_hash', '=', sha256Hex(revoked))
      .execute();
    expect(await purgeTokens(h.db)).toBeGreaterThanOrEqual(2);
    const left = await tokenHashes();
    expect(left.has(sha256Hex(valid))).toBe(true);
    expect(left.has(sha256Hex(expired))).toBe(false);
    expect(left.has(sha256Hex(revoked))).toBe(false);
    expect((await h.request('GET', '/v1/me', { token: valid })).status).toBe(200);
  });

  it('runs on token issue at most once per interval (the cheap trigger)', async () => {
    let now = 0;
    const saved = h.deps.tokenPurger;
    h.deps.tokenPurger = new TokenPurger(h.db, 60_000, h.deps.logger, () => now);
    try {
      const { clientId, clientSecret } = h.credentials.billing;
      const expireOne = async () => {
        const token = await issueToken(h.db, clientId, h.users.billing.id, 3600);
        await sql`update tokens set expires_at = now() - interval '1 second' where token_hash = ${sha256Hex(token)}`.execute(
          h.db,
        );
        return sha256Hex(token);
      };
      const present = async (hash: string) =>
        (
          await h.db
            .selectFrom('tokens')
            .select('token_hash')
            .where('token_hash', '=', hash)
            .execute()
        ).length === 1;
      const issue = async () => {
        const res = await h.request('POST', '/oauth/token', {
          body: tokenBody(clientId, clientSecret),
          headers: FORM,
        });
        expect(res.status).toBe(200);
        // The purge is not awaited by the request; wait for it.
        await new Promise((resolve) => setTimeout(resolve, 50));
      };
      const first = await expireOne();
      await issue();
      expect(await present(first)).toBe(true); // not due yet
      now += 60_000;
      await issue();
      expect(await present(first)).toBe(false); // due: purged
      const second = await expireOne();
      now += 1_000;
      await issue();
      expect(await present(second)).toBe(true); // ran a second ago: not again
    } finally {
      h.deps.tokenPurger = saved;
    }
  });

  it('runs once at start and then on its timer (the server calls start)', async () => {
    const token = await issueToken(h.db, h.credentials.billing.clientId, h.users.billing.id, 3600);
    const hash = sha256Hex(token);
    await h.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hash)
      .execute();
    const purger = new TokenPurger(h.db, 3_600_000, h.deps.logger);
    const stop = purger.start();
    try {
      // The start-up purge is the one running now: purgeNow joins it.
      await purger.purgeNow();
      expect((await tokenHashes()).has(hash)).toBe(false);
    } finally {
      stop();
    }
  });
});
