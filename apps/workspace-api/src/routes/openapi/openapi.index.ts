import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import { getDocsAsset, getDocsPage } from './docs.ts';
import { openApiHandler } from './openapi.handlers.ts';
import * as routes from './openapi.routes.ts';

/**
 * The API description and its reference page, describing the routes `registry` returns.
 *
 * @example
 * export const ROUTES = [...openapiRoutes(() => ROUTES), ...usersRoutes];
 */
export function openapiRoutes(registry: () => BoundRoute[]): BoundRoute[] {
  return [
    bind(routes.getOpenApi, openApiHandler(registry)),
    bind(routes.getDocsPage, getDocsPage),
    bind(routes.getDocsAsset, getDocsAsset),
  ];
}
