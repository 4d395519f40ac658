import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema, TokenErrorSchema } from '@wsc/api-client';
import { TokenResponseSchema, UserSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { TokenBucketLimiter } from '../../lib/rate-limit.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function tokenFor(who: 'admin' | 'member' | 'billing' | 'inactive') {
  const { clientId, clientSecret } = h.credentials[who];
  return h.request('POST', '/oauth/token', {
    body: 'grant_type=client_credentials',
    headers: { ...FORM, Authorization: basic(clientId, clientSecret) },
  });
}

describe('POST /oauth/token', () => {
  it('issues a bearer token for HTTP Basic + form grant_type, with no-store', async () => {
    const res = await tokenFor('member');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = TokenResponseSchema.parse(res.json);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(h.config.tokenTtlSeconds);
    const me = await h.request('GET', '/v1/me', { token: body.access_token });
    expect(me.status).toBe(200);
    expect(UserSchema.parse(me.json).email).toBe('agent@example.com');
  });

  it('accepts client_id and client_secret as form fields', async () => {
    const { clientId, clientSecret } = h.credentials.admin;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const res = await h.request('POST', '/oauth/token', { body: body.toString(), headers: FORM });
    expect(res.status).toBe(200);
    TokenResponseSchema.parse(res.json);
  });

  it('accepts a JSON body', async () => {
    const { clientId, clientSecret } = h.credentials.admin;
    const res = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    });
    expect(res.status).toBe(200);
    TokenResponseSchema.parse(res.json);
  });

  it('rejects a wrong secret with 401 invalid_client and WWW-Authenticate: Basic', async () => {
    const res = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: { ...FORM, Authorization: basic(h.credentials.admin.clientId, 'wrong') },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toMatch(/^Basic/);
    expect(TokenErrorSchema.parse(res.json).error).toBe('invalid_client');
  });

  it('rejects an unknown client id and missing credentials with invalid_client', async () => {
    const unknown = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials&client_id=nobody&client_secret=x',
      headers: FORM,
    });
    expect(unknown.status).toBe(401);
    expect(TokenErrorSchema.parse(unknown.json).error).toBe('invalid_client');
    const missing = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: FORM,
    });
    expect(missing.status).toBe(401);
    expect(TokenErrorSchema.parse(missing.json).error).toBe('invalid_client');
  });

  it('answers invalid_request and unsupported_grant_type per RFC 6749', async () => {
    const auth = basic(h.credentials.admin.clientId, h.credentials.admin.clientSecret);
    const noGrant = await h.request('POST', '/oauth/token', {
      body: '',
      headers: { ...FORM, Authorization: auth },
    });
    expect(noGrant.status).toBe(400);
    expect(TokenErrorSchema.parse(noGrant.json).error).toBe('invalid_request');
    const password = await h.request('POST', '/oauth/token', {
      body: 'grant_type=password',
      headers: { ...FORM, Authorization: auth },
    });
    expect(password.status).toBe(400);
    expect(TokenErrorSchema.parse(password.json).error).toBe('unsupported_grant_type');
    const badJson = await h.request('POST', '/oauth/token', {
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect(TokenErrorSchema.parse(badJson.json).error).toBe('invalid_request');
    const both = await h.request('POST', '/oauth/token', {
      body: `grant_type=client_credentials&client_id=${h.credentials.admin.clientId}`,
      headers: { ...FORM, Authorization: auth },
    });
    expect(both.status).toBe(400);
    const xml = await h.request('POST', '/oauth/token', {
      body: '<x/>',
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(xml.status).toBe(400);
  });

  it('refuses an inactive user', async () => {
    const res = await tokenFor('inactive');
    expect(res.status).toBe(401);
    expect(TokenErrorSchema.parse(res.json).error).toBe('invalid_client');
  });

  it('stores secrets as scrypt hashes and tokens as sha256 hashes only', async () => {
    const res = await tokenFor('billing');
    const token = TokenResponseSchema.parse(res.json).access_token;
    const credential = await h.db
      .selectFrom('credentials')
      .selectAll()
      .where('client_id', '=', h.credentials.billing.clientId)
      .executeTakeFirstOrThrow();
    expect(credential.secret_hash).toMatch(/^scrypt\$/);
    expect(credential.secret_hash).not.toContain(h.credentials.billing.clientSecret);
    const rows = await h.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.some((row) => row.token_hash === sha256Hex(token))).toBe(true);
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
  });

  it('expires tokens after the configured lifetime', async () => {
    const saved = h.config.tokenTtlSeconds;
    h.config.tokenTtlSeconds = 1;
    try {
      const res = await tokenFor('member');
      const body = TokenResponseSchema.parse(res.json);
      expect(body.expires_in).toBe(1);
      expect((await h.request('GET', '/v1/me', { token: body.access_token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await h.request('GET', '/v1/me', { token: body.access_token });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
      expect(ProblemSchema.parse(expired.json).detail).toMatch(/expired/);
    } finally {
      h.config.tokenTtlSeconds = saved;
    }
  });

  it('limits failed attempts per client id with 429 and Retry-After, never the right secret', async () => {
    const saved = h.deps.limiters.tokenFailures;
    h.deps.limiters.tokenFailures = new TokenBucketLimiter({ ratePerSecond: 0.01, burst: 2 });
    try {
      const attempt = () =>
        h.request('POST', '/oauth/token', {
          body: 'grant_type=client_credentials',
          headers: { ...FORM, Authorization: basic(h.credentials.member.clientId, 'guess') },
        });
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).status).toBe(401);
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(ProblemSchema.parse(limited.json).status).toBe(429);
      // The right secret is never locked out by failures (docs/security.md, secret checks).
      expect((await tokenFor('member')).status).toBe(200);
      // Other clients are unaffected.
      expect((await tokenFor('admin')).status).toBe(200);
    } finally {
      h.deps.limiters.tokenFailures = saved;
    }
  });
});

describe('bearer authentication', () => {
  it('answers 401 with WWW-Authenticate: Bearer for missing, malformed and unknown tokens', async () => {
    for (const headers of [
      {},
      { Authorization: 'Bearer' },
      { Authorization: 'Basic abc' },
      { Authorization: 'Bearer not-a-token' },
    ] as Array<Record<string, string>>) {
      const res = await h.request('GET', '/v1/me', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('Content-Type')).toContain('application/problem+json');
      ProblemSchema.parse(res.json);
    }
  });

  it("revokes a user's tokens on deactivation; their credentials then get 401", async () => {
    const created = await h.request('POST', '/v1/users', {
      token: h.tokens.admin,
      body: { email: 'leaver@example.com', firstName: 'Lee', lastName: 'Leaver' },
    });
    const user = UserSchema.parse(created.json);
    const { createCredential, issueToken } = await import('../../identity/credentials.ts');
    const credential = await createCredential(h.db, user.id);
    const token = await issueToken(h.db, credential.clientId, user.id, 3600);
    expect((await h.request('GET', '/v1/me', { token })).status).toBe(200);
    const deactivated = await h.request('POST', `/v1/users/${user.id}/deactivate`, {
      token: h.tokens.admin,
    });
    expect(UserSchema.parse(deactivated.json).status).toBe('INACTIVE');
    expect((await h.request('GET', '/v1/me', { token })).status).toBe(401);
    const again = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: { ...FORM, Authorization: basic(credential.clientId, credential.clientSecret) },
    });
    expect(again.status).toBe(401);
    const revoked = await h.db
      .selectFrom('tokens')
      .select('revoked')
      .where('user_id', '=', user.id)
      .execute();
    expect(revoked.every((row) => row.revoked)).toBe(true);
  });
});
