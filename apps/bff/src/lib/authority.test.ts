// Authority is current (ADR 0027), through HTTP, performing the review's attacks (M1):
// - extended, over the REAL workspace API: a credential revoked with `POST /v1/credentials/{id}/
//   revoke` loses the administrators' log and its CSV, and its live event stream ends, within a
//   minute (the BFF's clock moved past it), whatever routes the session keeps to;
// - hosted: an administrator the operator demotes in the identities file loses the log and the
//   workspace setup once the file is read again (seconds), without a restart or a new sign-in;
//   and a hosted credential the token endpoint refuses ends its session on an admin route.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../test/fake-upstream.ts';
import type { Harness } from '../../test/harness.ts';
import { openEventStream } from '../../test/event-stream.ts';
import { CLIENT_ID, startFakeUpstream } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { startRealApi } from '../../test/api-server.ts';
import { AUTHORITY_MAX_AGE_MS } from './authority.ts';
import { regionFor } from './config.ts';
import { IDENTITIES_CHECK_MS } from './identities-source.ts';
import { readIdentitiesFile } from './identities.ts';
import { SESSION_COOKIE } from './sessions.ts';

/** The part of workspace-api's test harness used here (test/api-server.ts starts it). */
type ApiHarness = {
  app: { fetch: (request: Request) => Response | Promise<Response> };
  credentials: Record<'admin' | 'member', { clientId: string; clientSecret: string }>;
  tokens: Record<'admin' | 'member', string>;
  request: (
    method: string,
    path: string,
    options?: { token?: string },
  ) => Promise<{ status: number }>;
  close: () => Promise<void>;
};

describe('extended, over the real workspace API: a revoked credential', () => {
  let api: ApiHarness;
  let stopApi: (() => Promise<void>) | undefined;
  let bff: Harness;
  let base: string;

  beforeAll(async () => {
    const started = await startRealApi<ApiHarness>();
    api = started.api;
    stopApi = started.close;
    const apiUrl = started.apiUrl;
    const unused = { apiUrl, close: async () => undefined } as unknown as FakeUpstream;
    bff = await createHarness({
      upstream: unused,
      socket: true,
      config: {
        regions: [regionFor('default', apiUrl)],
        liveEvents: {
          ...(await import('./config.ts')).defaultConfig().liveEvents,
          heartbeatMs: 100,
        },
      },
    });
    base = await bff.listen();
  });
  afterAll(async () => {
    await bff?.close();
    await stopApi?.();
  });

  const signIn = async (who: 'admin' | 'member') => {
    const { res, cookie } = await bff.login(api.credentials[who]);
    expect(res.status).toBe(200);
    return cookie;
  };
  const revoke = async (who: 'admin' | 'member') => {
    const res = await api.request(
      'POST',
      `/v1/credentials/${api.credentials[who].clientId}/revoke`,
      {
        token: api.tokens.admin,
      },
    );
    expect(res.status).toBe(200);
  };

  it('ends its live event stream within a minute, though the session never calls /api', async () => {
    const cookie = await signIn('member');
    const stream = await openEventStream(base, { cookie: `${SESSION_COOKIE}=${cookie}` });
    try {
      await revoke('member');
      bff.clock.advance(AUTHORITY_MAX_AGE_MS);
      // The next heartbeats ask the upstream again with the session's credential: refused.
      await Promise.race([
        stream.ended,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('stream still open')), 15_000),
        ),
      ]);
      expect((await bff.api('/bff/session', { cookie })).status).toBe(401);
    } finally {
      stream.close();
    }
  });

  it('loses the administrators’ log and its CSV within a minute, and the session ends', async () => {
    const cookie = await signIn('admin');
    expect((await bff.api('/bff/history', { cookie })).status).toBe(200);
    expect((await bff.api('/bff/history/export.csv', { cookie })).status).toBe(200);
    await revoke('admin');
    bff.clock.advance(AUTHORITY_MAX_AGE_MS);
    const log = await bff.api('/bff/history', { cookie });
    expect(log.status).toBe(401);
    expect(log.headers.get('content-type')).toBe('application/problem+json');
    expect((await bff.api('/bff/history/export.csv', { cookie })).status).toBe(401);
    expect((await bff.api('/bff/session', { cookie })).status).toBe(401);
  });
});

describe('hosted: the identities file as it is now', () => {
  let upstream: FakeUpstream;
  let dir: string;
  let file: string;
  let h: Harness;

  const identities = (role: 'ADMIN' | 'MEMBER') =>
    JSON.stringify({ identities: [{ clientId: CLIENT_ID, email: 'ada@example.com', role }] });

  beforeAll(async () => {
    upstream = await startFakeUpstream({ mode: 'hosted' });
    dir = await mkdtemp(path.join(tmpdir(), 'bff-identities-'));
    file = path.join(dir, 'identities.json');
    await writeFile(file, identities('ADMIN'));
    h = await createHarness({
      upstream,
      config: {
        regions: [regionFor('default', upstream.apiUrl, { profile: 'hosted' })],
        identities: readIdentitiesFile('BFF_IDENTITIES_FILE', file),
        identitiesFile: file,
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the log and the workspace setup from an administrator the operator demotes', async () => {
    await writeFile(file, identities('ADMIN'));
    h.clock.advance(IDENTITIES_CHECK_MS);
    const { cookie } = await h.login();
    expect((await h.api('/bff/history', { cookie })).status).toBe(200);
    const before = (await (await h.api('/bff/workspace', { cookie })).json()) as {
      editable: boolean;
    };
    expect(before.editable).toBe(true);

    // The operator edits the file; no restart, no new sign-in.
    await writeFile(file, identities('MEMBER'));
    h.clock.advance(IDENTITIES_CHECK_MS);
    expect((await h.api('/bff/history', { cookie })).status).toBe(403);
    expect((await h.api('/bff/history/export.csv', { cookie })).status).toBe(403);
    const after = (await (await h.api('/bff/workspace', { cookie })).json()) as {
      editable: boolean;
    };
    expect(after.editable).toBe(false);
    const edit = await h.api('/bff/workspace/definitions/tasks/demoted', {
      method: 'DELETE',
      cookie,
    });
    expect(edit.status).toBe(403);

    // A file the operator breaks names nobody (closed), never everybody.
    await writeFile(file, '{"identities": [');
    h.clock.advance(IDENTITIES_CHECK_MS);
    expect((await h.api('/bff/history', { cookie })).status).toBe(403);
  });

  it('ends the session of a credential the token endpoint refuses, on an admin route', async () => {
    await writeFile(file, identities('ADMIN'));
    h.clock.advance(IDENTITIES_CHECK_MS);
    const { cookie } = await h.login();
    expect((await h.api('/bff/history', { cookie })).status).toBe(200);
    upstream.revokeTokens();
    upstream.tokenFailure = 401;
    upstream.tokenFailureBody = { error: 'invalid_client' };
    try {
      h.clock.advance(AUTHORITY_MAX_AGE_MS);
      expect((await h.api('/bff/history', { cookie })).status).toBe(401);
      expect((await h.api('/bff/session', { cookie })).status).toBe(401);
    } finally {
      upstream.tokenFailure = undefined;
    }
  });
});
