// Bulk runs: what a bulk change wrote and each record's previous values, stored per user in the
// BFF's own store for 7 days so a run can be undone after a reload (ADR 0020). Every query is
// scoped to the session's owner id and region: another user's run is a 404, never a 403. This
// file wires the routes; the handlers and the store are beside it.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { Visibility } from '../../lib/visible-definitions.ts';
import { createRouter } from '../../lib/create-app.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { bulkRunsHandlers } from './bulk-runs.handlers.ts';
import { bulkRunsStore, MAX_BULK_RUN_BYTES } from './bulk-runs.store.ts';

/**
 * The `/bff/bulk-runs` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createBulkRunsRouter({ db: store.db, sessions, clock, api, visibility }));
 */
export function createBulkRunsRouter(deps: {
  db: Kysely<BffDatabase>;
  sessions: Sessions;
  clock: Clock;
  api: SessionApi;
  visibility: Visibility;
}) {
  const handlers = bulkRunsHandlers({ ...deps, runs: bulkRunsStore(deps.db) });
  const router = createRouter();
  // `/bulk-runs/*` also matches `/bulk-runs` itself: one registration covers every route.
  router.use(
    '/bulk-runs/*',
    csrf({ unsafeOnly: true }),
    sessionMiddleware(deps.sessions),
    requireAuth,
  );

  router.get('/bulk-runs', handlers.list);
  // A run's previous values fit one request: 413 before the body is read further.
  router.post('/bulk-runs', jsonBodyLimit(MAX_BULK_RUN_BYTES), handlers.create);
  router.get('/bulk-runs/:id', handlers.get);
  router.put('/bulk-runs/:id/undo', jsonBodyLimit(4 * 1024), handlers.recordUndo);
  return router;
}
