// `GET /v1/docs`: a browsable reference of this API (Swagger UI, self-hosted from swagger-ui-dist)
// over `/v1/openapi.json`, the document generated from the same zod schemas the handlers use.
// Under a strict CSP: every script is a file of this origin (the initializer below included, no
// inline script), nothing is loaded from elsewhere, and the page may not be framed.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context } from 'hono';

import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './openapi.routes.ts';
import { notFound } from '../../lib/errors.ts';

/** Swagger UI's folder in node_modules, found from this module at run time (also when bundled). */
const UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets element styles from script (allowed) and ships one stylesheet of this origin.
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Records and Workspace API reference</title>
    <link rel="stylesheet" href="/v1/docs/swagger-ui.css" />
  </head>
  <body>
    <main id="reference"></main>
    <script src="/v1/docs/swagger-ui-bundle.js"></script>
    <script src="/v1/docs/init.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI on the generated document; a file of its own, since the CSP allows no inline script. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  validatorUrl: null,
});
`;

const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

const cache = new Map<string, Buffer>();

export function getDocsPage(c: Context<AppEnv>) {
  return c.body(PAGE, 200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
  });
}

export async function getDocsAsset(
  c: Context<AppEnv>,
  input: RouteInput<typeof routes.getDocsAsset>,
) {
  const name = input.params().asset;
  const headers = { ...SECURITY_HEADERS, 'Cache-Control': 'public, max-age=3600' };
  if (name === 'init.js') {
    return c.body(INIT, 200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' });
  }
  const asset = ASSETS[name];
  if (!asset) throw notFound(`No file ${name} in the API reference`);
  let body = cache.get(name);
  if (!body) {
    body = await readFile(path.join(UI_DIR, asset.file));
    cache.set(name, body);
  }
  return c.body(new Uint8Array(body), 200, { ...headers, 'Content-Type': asset.type });
}
