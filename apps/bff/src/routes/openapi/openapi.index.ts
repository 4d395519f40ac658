// `GET /bff/openapi.json`: the BFF's own interface (openapi.document.ts), built once.
import { createRouter } from '../../lib/create-app.ts';
import { buildBffOpenApi } from './openapi.document.ts';

/**
 * The `/bff/openapi.json` router (mounted under `/bff`; public, like the API's own document).
 *
 * @example
 * app.route('/bff', createOpenApiRouter());
 */
export function createOpenApiRouter() {
  const router = createRouter();
  let cached: string | undefined;
  router.get('/openapi.json', (c) => {
    cached ??= JSON.stringify(buildBffOpenApi());
    return c.body(cached, 200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
    });
  });
  return router;
}
