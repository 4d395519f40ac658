// Mounted by app.ts in the hosted profile only, before the generic record routes, so that
// `GET /v1/elements/{alias}` is getElement there (and a record search in the extended profile).
// No elements.routes.ts: the generated OpenAPI document describes the extended profile.
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { getElement } from './elements.handlers.ts';

export const elementsRouter = createRouter().get(
  '/elements/:alias',
  publishedQuery('getElement'),
  getElement,
);
