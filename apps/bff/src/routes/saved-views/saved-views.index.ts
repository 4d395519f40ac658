// Saved views: named list views (filter, sort, columns) of one definition, stored per user in the
// BFF's own store so they survive restarts and follow the user across browsers. Every query is
// scoped to the session's owner id and region: another user's view is a 404, never a 403, so ids
// of other people's views cannot be probed. This file wires the routes; the handlers and the
// store are beside it.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { Visibility } from '../../lib/visible-definitions.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import { createRouter } from '../../lib/create-app.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { groupMembership } from './group-membership.ts';
import { savedViewsHandlers } from './saved-views.handlers.ts';
import { viewSharesStore } from './saved-views.shares.ts';
import { MAX_VIEW_BYTES, savedViewsStore } from './saved-views.store.ts';

/**
 * The `/bff/views` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createSavedViewsRouter({ db: store.db, sessions, clock, config, workspace, api, visibility }));
 */
export function createSavedViewsRouter(deps: {
  db: Kysely<BffDatabase>;
  sessions: Sessions;
  clock: Clock;
  config: BffConfig;
  workspace: WorkspaceStore;
  api: SessionApi;
  visibility: Visibility;
}) {
  const handlers = savedViewsHandlers({
    ...deps,
    views: savedViewsStore(deps.db),
    shares: viewSharesStore(deps.db),
    membership: groupMembership(deps),
  });
  const router = createRouter();
  const limit = jsonBodyLimit(MAX_VIEW_BYTES);
  // `/views/*` also matches `/views` itself: one registration covers the list and every view.
  router.use('/views/*', csrf({ unsafeOnly: true }), sessionMiddleware(deps.sessions), requireAuth);

  router.get('/views', handlers.list);
  router.post('/views', limit, handlers.create);
  // Before `/views/:id`: `shared` is no view id.
  router.get('/views/shared', handlers.listShared);
  router.get('/views/:id', handlers.get);
  router.put('/views/:id', limit, handlers.update);
  router.delete('/views/:id', handlers.remove);
  router.put('/views/:id/default', handlers.setDefault);
  router.delete('/views/:id/default', handlers.clearDefault);
  router.put('/views/:id/shares', limit, handlers.share);
  router.delete('/views/:id/shares', handlers.unshare);
  return router;
}
