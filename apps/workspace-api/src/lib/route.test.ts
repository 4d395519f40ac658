// The route machinery: a spec mounted with its path, its middleware and its validated input, each
// failure answered as the handlers answered before (404 for a malformed id, the paging problem,
// body limits and body problems), in the profile's format.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { PageQuerySchema, RecordTypeSchema } from '@wsc/api-client';

import type { AppDeps } from './types.ts';
import { ROUTES } from '../routes/index.ts';
import { JSON_BODY_MAX_BYTES } from './body.ts';
import { createApp } from './create-app.ts';
import { bind, defineRoute, honoPath, mountRoutes } from './route.ts';

const thing = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/things/{thingId}',
  summary: 'A test route',
  operation: 'listGroupUsers',
  tags: ['Test'],
  params: z.object({ recordType: RecordTypeSchema, thingId: z.uuid() }),
  query: PageQuerySchema.extend({ filter: z.string().optional() }),
  body: { schema: z.object({ name: z.string().min(1) }) },
  responses: { 200: { description: 'Echo' } },
});

function appIn(profile: 'extended' | 'hosted') {
  const deps = {
    config: { profile },
    metrics: { middleware: () => async (_c: unknown, next: () => Promise<void>) => next() },
    logger: { debug: () => undefined, error: () => undefined },
  } as unknown as AppDeps;
  const app = createApp(deps);
  mountRoutes(app, [
    bind(thing, async (c, request) => {
      const { thingId } = request.params();
      const query = request.query();
      const body = await request.body();
      return c.json({ thingId, first: query.first ?? null, name: body.name });
    }),
  ]);
  return app;
}

const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
const post = (app: ReturnType<typeof appIn>, path: string, body: string) =>
  app.request(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('routes from their specs', () => {
  it('mounts the OpenAPI path in Hono syntax, an enum parameter as a constraint', () => {
    expect(honoPath(thing)).toBe(
      '/v1/:recordType{apps|elements|tasks|transactions}/things/:thingId',
    );
  });

  it('gives the handler its typed, validated params, query and body', async () => {
    const res = await post(appIn('extended'), `/v1/apps/things/${id}?first=5`, '{"name":"a"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ thingId: id, first: 5, name: 'a' });
  });

  it('answers 404 for a path parameter that fails its schema, and for an enum outside its values', async () => {
    const app = appIn('extended');
    const malformed = await post(app, '/v1/apps/things/not-a-uuid', '{"name":"a"}');
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toMatchObject({ detail: 'No thing not-a-uuid' });
    expect((await post(app, `/v1/users/things/${id}`, '{"name":"a"}')).status).toBe(404);
  });

  it('answers a query that fails its schema with the paging problem', async () => {
    const res = await post(appIn('extended'), `/v1/apps/things/${id}?first=0`, '{"name":"a"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      detail: 'Invalid paging parameters',
      errors: [{ field: 'first', message: 'Expected an integer from 1 to 1000' }],
    });
  });

  it('reads the body as parseJsonBody does: 400 malformed, 422 per field, 413 past the limit', async () => {
    const app = appIn('extended');
    const malformed = await post(app, `/v1/apps/things/${id}`, '{nope');
    expect(malformed.status).toBe(400);
    const invalid = await post(app, `/v1/apps/things/${id}`, '{"name":""}');
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { errors: Array<{ field: string }> }).errors[0]?.field).toBe(
      'name',
    );
    const large = await app.request(`/v1/apps/things/${id}`, {
      method: 'POST',
      body: '{}',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(JSON_BODY_MAX_BYTES + 1),
      },
    });
    expect(large.status).toBe(413);
  });

  it('refuses in the hosted profile a query parameter the published operation does not declare', async () => {
    const res = await post(appIn('hosted'), `/v1/apps/things/${id}?sort=x`, '{"name":"a"}');
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()) as object)).toEqual(['message']);
  });
});

describe('the registry', () => {
  it('declares each method and path once per profile', () => {
    for (const profile of ['extended', 'hosted'] as const) {
      const keys = ROUTES.filter(({ spec }) => (spec.profile ?? profile) === profile).map(
        ({ spec }) => `${spec.method} ${spec.path}`,
      );
      expect(new Set(keys).size, profile).toBe(keys.length);
    }
  });
});
