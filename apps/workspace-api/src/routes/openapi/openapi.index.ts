import { createRouter } from '../../lib/create-app.ts';
import { getDocsAsset, getDocsPage } from './docs.ts';
import { getOpenApi } from './openapi.handlers.ts';

export { openapiRoutes } from './openapi.routes.ts';

export const openapiRouter = createRouter()
  .get('/openapi.json', getOpenApi)
  .get('/docs', getDocsPage)
  .get('/docs/:asset', getDocsAsset);
