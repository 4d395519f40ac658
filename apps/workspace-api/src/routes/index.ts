// Every route of the API, in the order they are matched and described (`GET /v1/openapi.json`).
// A resource's routes are declared once, in its `*.routes.ts`, and paired with their handlers in
// its `*.index.ts`; app.ts mounts this list in the profile it serves.
import type { BoundRoute } from '../lib/route.ts';
import { attachmentsRoutes } from './attachments/attachments.index.ts';
import { commentsRoutes } from './comments/comments.index.ts';
import { credentialsRoutes } from './credentials/credentials.index.ts';
import { definitionsRoutes } from './definitions/definitions.index.ts';
import { elementsRoutes } from './elements/elements.index.ts';
import { groupsRoutes } from './groups/groups.index.ts';
import { meRoutes } from './me/me.index.ts';
import { oauthRoutes } from './oauth/oauth.index.ts';
import { openapiRoutes } from './openapi/openapi.index.ts';
import { recordsRoutes } from './records/records.index.ts';
import { relatedItemsRoutes } from './related-items/related-items.index.ts';
import { usersRoutes } from './users/users.index.ts';
import { watchersRoutes } from './watchers/watchers.index.ts';

export const ROUTES: BoundRoute[] = [
  ...oauthRoutes,
  ...openapiRoutes(() => ROUTES),
  ...meRoutes,
  ...definitionsRoutes,
  ...usersRoutes,
  ...credentialsRoutes,
  ...groupsRoutes,
  // Hosted only: `GET /v1/elements/{alias}` is getElement there, matched before the record search.
  ...elementsRoutes,
  ...recordsRoutes,
  ...relatedItemsRoutes,
  ...attachmentsRoutes,
  ...watchersRoutes,
  ...commentsRoutes,
];
