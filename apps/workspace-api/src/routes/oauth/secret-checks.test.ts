// DESIGN.md section 6, "secret checks": a constant-cost check that cannot exhaust the thread pool;
// failure limits charged before the work; new client ids bring no fresh failures; a correct secret
// is never locked out by someone else's failures. Each test performs the attack over HTTP.
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema, TokenErrorSchema } from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import type { AppDeps } from '../../lib/types.ts';
import { createHarness } from '../../../test/harness.ts';
import { createCredential, revokeCredential } from '../../identity/credentials.ts';
import { verifySecret } from '../../lib/crypto.ts';
import { TokenBucketLimiter } from '../../lib/rate-limit.ts';
import { SecretChecker } from '../../oauth/secret-check.ts';

let h: Harness;
let saved: Pick<AppDeps, 'limiters' | 'secrets'>;

beforeAll(async () => {
  h = await createHarness();
  saved = { limiters: { ...h.deps.limiters }, secrets: h.deps.secrets };
});
afterEach(() => {
  h.deps.limiters = { ...saved.limiters };
  h.deps.secrets = saved.secrets;
});
afterAll(() => h.close());

const OFF = { ratePerSecond: 0, burst: 0 };

/** A token request as it arrives from `address` (the TCP peer node-server hands the app). */
async function tokenRequest(clientId: string, secret: string, address = '198.51.100.1') {
  const res = await h.app.request(
    '/oauth/token',
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    },
    { incoming: { socket: { remoteAddress: address } } },
  );
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

const wrong = (clientId = h.credentials.member.clientId, address?: string) =>
  tokenRequest(clientId, 'not-the-secret', address);
const right = (address?: string) =>
  tokenRequest(h.credentials.member.clientId, h.credentials.member.clientSecret, address);

function useLimits(perPair: { ratePerSecond: number; burst: number }, perAddress = OFF) {
  h.deps.limiters.tokenFailures = new TokenBucketLimiter(perPair);
  h.deps.limiters.tokenFailuresByAddress = new TokenBucketLimiter(perAddress);
}

describe('the thread pool', () => {
  it('runs at most SECRET_CHECK_CONCURRENCY checks; past the queue, an immediate 503 with no work', async () => {
    const checker = new SecretChecker({ concurrency: 2, queue: 4, cacheTtlSeconds: 0 });
    h.deps.secrets = checker;
    const flood = Promise.all(
      Array.from({ length: 40 }, (_, i) => wrong(`wsc_flood_${i}`, `203.0.113.${i}`)),
    );
    // While scrypt work is queued, the pool still has free threads: a blob read is not stuck
    // behind the flood (unbounded, 40 scrypt jobs would sit in libuv's queue ahead of it).
    const deadline = Date.now() + 10_000;
    while (checker.waiting < 4 && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    expect(checker.waiting).toBe(4);
    await fs.readFile(fileURLToPath(import.meta.url));
    expect(checker.running + checker.waiting).toBeGreaterThan(0);

    const results = await flood;
    const statuses = results.map((res) => res.status);
    expect(new Set(statuses)).toEqual(new Set([401, 503]));
    expect(checker.peakRunning).toBeLessThanOrEqual(2);
    const busy = results.filter((res) => res.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(20);
    for (const res of busy) {
      expect(res.headers.get('Retry-After')).toBe('1');
      expect(ProblemSchema.parse(res.json).status).toBe(503);
    }
    // A refused attempt started no scrypt.
    expect(checker.started).toBe(40 - busy.length);
  });
});

describe('failure limits', () => {
  it('are charged before the check: 20 concurrent wrong attempts get 3 answers, then 429', async () => {
    useLimits({ ratePerSecond: 0.001, burst: 3 });
    h.deps.secrets = new SecretChecker({ concurrency: 2, queue: 64, cacheTtlSeconds: 0 });
    const results = await Promise.all(Array.from({ length: 20 }, () => wrong()));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
    const limited = results.find((res) => res.status === 429);
    expect(Number(limited?.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('give a new client id no fresh failures: the address budget covers every id', async () => {
    useLimits({ ratePerSecond: 0.001, burst: 3 }, { ratePerSecond: 0.001, burst: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1)
      statuses.push((await wrong(`wsc_new_${i}`, '192.0.2.7')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, ...Array<number>(7).fill(429)]);
    // Another address is not affected.
    expect((await wrong('wsc_new_x', '192.0.2.8')).status).toBe(401);
    // IPv6 addresses count by /64: rotating within one's prefix buys nothing.
    const v6 = [];
    for (let i = 1; i <= 7; i += 1)
      v6.push((await wrong(`wsc_v6_${i}`, `2001:db8:1:2::${i}`)).status);
    expect(v6).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it("never lock out a correct secret: someone else's failures, even from the same address", async () => {
    useLimits({ ratePerSecond: 0.001, burst: 2 }, { ratePerSecond: 0.001, burst: 4 });
    // No remembered success: the correct secret has to pass scrypt each time.
    h.deps.secrets = new SecretChecker({ concurrency: 2, queue: 16, cacheTtlSeconds: 0 });
    const attacker = '198.51.100.66';
    const attempts = [];
    for (let i = 0; i < 6; i += 1) attempts.push((await wrong(undefined, attacker)).status);
    expect(attempts).toEqual([401, 401, 429, 429, 429, 429]);
    // The owner from elsewhere, and from behind the attacker's own address (a shared proxy).
    expect((await right('198.51.100.20')).status).toBe(200);
    expect((await right(attacker)).status).toBe(200);
    // The attacker's next guess is still refused.
    const refused = await wrong(undefined, attacker);
    expect(refused.status).toBe(429);
    expect(ProblemSchema.parse(refused.json).status).toBe(429);
  });

  it('charge nothing for a correct secret: successes never use up the budget', async () => {
    useLimits({ ratePerSecond: 0.001, burst: 2 });
    for (let i = 0; i < 5; i += 1) expect((await right()).status).toBe(200);
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(429);
  });
});

describe('remembered successes', () => {
  it('skip scrypt for a verified pair until the TTL, while revocation applies at once', async () => {
    let now = 1_000_000;
    let scrypts = 0;
    h.deps.secrets = new SecretChecker(
      { concurrency: 2, queue: 16, cacheTtlSeconds: 60 },
      {
        now: () => now,
        verify: (secret, stored) => {
          scrypts += 1;
          return verifySecret(secret, stored);
        },
      },
    );
    const credential = await createCredential(h.db, h.users.billing.id, 'cache-test');
    const ask = (secret: string) => tokenRequest(credential.clientId, secret);
    expect((await ask(credential.clientSecret)).status).toBe(200);
    expect(scrypts).toBe(1);
    expect((await ask(credential.clientSecret)).status).toBe(200);
    expect(scrypts).toBe(1);
    // A wrong secret is always checked in full.
    expect((await ask('wrong')).status).toBe(401);
    expect(scrypts).toBe(2);
    now += 61_000;
    expect((await ask(credential.clientSecret)).status).toBe(200);
    expect(scrypts).toBe(3);
    // Revoked behind the cache's back (no forget): the row is read on every request.
    await revokeCredential(h.db, credential.clientId);
    const revoked = await ask(credential.clientSecret);
    expect(revoked.status).toBe(401);
    expect(TokenErrorSchema.parse(revoked.json).error).toBe('invalid_client');
  });
});

describe('identical checks at once', () => {
  it('share one scrypt run (many sessions of one credential signing in together)', async () => {
    let scrypts = 0;
    h.deps.secrets = new SecretChecker(
      { concurrency: 2, queue: 4, cacheTtlSeconds: 0 },
      {
        verify: (secret, stored) => {
          scrypts += 1;
          return verifySecret(secret, stored);
        },
      },
    );
    const results = await Promise.all(Array.from({ length: 30 }, () => right()));
    expect(results.map((res) => res.status)).toEqual(Array<number>(30).fill(200));
    expect(scrypts).toBeLessThanOrEqual(2);
  });
});
