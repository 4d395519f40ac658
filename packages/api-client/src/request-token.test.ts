import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { TestServer } from './testing/http-server.ts';
import { isApiError } from './errors.ts';
import { requestToken } from './request-token.ts';
import { sendJson, startTestServer } from './testing/http-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const token = { access_token: 'opaque-123', token_type: 'Bearer', expires_in: 86400 };
const request = () =>
  requestToken({
    tokenUrl: `${server.origin}/oauth/token`,
    clientId: 'client-1',
    clientSecret: 's3cr:et é',
  });

describe('requestToken', () => {
  it('posts the client_credentials form with HTTP Basic (form-encoded credentials)', async () => {
    server.handle((_req, res) => sendJson(res, 200, token, { 'Cache-Control': 'no-store' }));
    await expect(request()).resolves.toEqual(token);
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/oauth/token');
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req?.body.toString()).toBe('grant_type=client_credentials');
    const basic = Buffer.from(
      String(req?.headers.authorization).replace(/^Basic /, ''),
      'base64',
    ).toString('utf8');
    expect(basic).toBe('client-1:s3cr%3Aet+%C3%A9');
  });

  it('accepts any 2xx, e.g. the hosted service 201', async () => {
    server.handle((_req, res) => sendJson(res, 201, { ...token, token_type: 'bearer' }));
    await expect(request()).resolves.toMatchObject({ access_token: 'opaque-123' });
  });

  it('maps RFC 6749 errors: code is the error value', async () => {
    server.handle((_req, res) =>
      sendJson(
        res,
        401,
        { error: 'invalid_client', error_description: 'Bad credentials' },
        {
          'WWW-Authenticate': 'Basic',
          'Content-Type': 'application/json',
        },
      ),
    );
    const error = await request().catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client', detail: 'Bad credentials' });
  });

  it('sends the JSON body of the published contract with style json, and takes a 201', async () => {
    server.handle((_req, res) =>
      sendJson(res, 201, { access_token: 'tok', grant_type: 'client_credentials' }),
    );
    const token = await requestToken({
      tokenUrl: `${server.origin}/oauth/token`,
      clientId: 'client one',
      clientSecret: 's3cr:t',
      style: 'json',
    });
    // No expires_in: an hour, the published example's lifetime.
    expect(token).toEqual({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    const sent = server.requests.at(-1);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['authorization']).toBeUndefined();
    expect(JSON.parse(String(sent?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client one',
      client_secret: 's3cr:t',
    });
  });

  it('maps a 400 unsupported_grant_type', async () => {
    server.handle((_req, res) => sendJson(res, 400, { error: 'unsupported_grant_type' }));
    await expect(request()).rejects.toMatchObject({ status: 400, code: 'unsupported_grant_type' });
  });

  it('rejects a malformed success body without echoing it (it may hold a token)', async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, { access_token: ['leak-me'], token_type: 'Bearer' }),
    );
    const error = await request().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_response', problem: undefined });
    expect(JSON.stringify(error)).not.toContain('leak-me');
    expect(String((error as Error).message)).not.toContain('leak-me');
  });

  it('reports an unreachable endpoint as network_error', async () => {
    const closed = await startTestServer();
    const tokenUrl = `${closed.origin}/oauth/token`;
    await closed.close();
    await expect(
      requestToken({ tokenUrl, clientId: 'a', clientSecret: 'b' }),
    ).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
  });

  it('uses the injected fetch', async () => {
    const seen: string[] = [];
    const fake: typeof fetch = async (input) => {
      seen.push(String(input));
      return Response.json(token);
    };
    await requestToken({
      tokenUrl: 'http://token.invalid/oauth/token',
      clientId: 'a',
      clientSecret: 'b',
      fetch: fake,
    });
    expect(seen).toEqual(['http://token.invalid/oauth/token']);
  });
});
