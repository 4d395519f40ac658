// `GET /v1/openapi.json`: built once, lazily, from the routes it is given (the registry,
// routes/index.ts): every route of the extended profile but those marked `described: false`.
import type { Context } from 'hono';

import type { BoundRoute, RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './openapi.routes.ts';
import { buildOpenApiDocument } from '../../lib/openapi.ts';

/**
 * The handler of `GET /v1/openapi.json` for a list of routes, read at the first request.
 *
 * @example
 * bind(routes.getOpenApi, openApiHandler(() => ROUTES));
 */
export function openApiHandler(registry: () => BoundRoute[]) {
  let cached: string | undefined;
  return (c: Context<AppEnv>, _input: RouteInput<typeof routes.getOpenApi>) => {
    cached ??= JSON.stringify(
      buildOpenApiDocument(
        registry()
          .map((route) => route.spec)
          .filter((spec) => spec.profile !== 'hosted' && spec.described !== false),
        { version: '1.0.0' },
      ),
    );
    return c.body(cached, 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'public, max-age=300',
    });
  };
}
