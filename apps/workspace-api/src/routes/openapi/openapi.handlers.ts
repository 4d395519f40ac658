// `GET /v1/openapi.json`: built once, lazily, from every route's spec (ROUTE_SPECS in app.ts).
import type { Context } from 'hono';

import type { AppEnv } from '../../lib/types.ts';
import { buildOpenApiDocument } from '../../lib/openapi.ts';

let cached: string | undefined;

export async function getOpenApi(c: Context<AppEnv>) {
  if (!cached) {
    // Imported lazily: app.ts imports this module's router, so a static import would be circular.
    const { ROUTE_SPECS } = await import('../../app.ts');
    cached = JSON.stringify(buildOpenApiDocument(ROUTE_SPECS, { version: '1.0.0' }));
  }
  return c.body(cached, 200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'public, max-age=300',
  });
}
