// `GET /bff/definitions`: the record definitions of the session's region in the shape of the
// workspace API's `/v1/definitions`, in both profiles. Extended: the upstream's own list. Hosted
// (no such operation): the region's workspace description, from the operator's file and the
// Workspace setup page.
import type { DefinitionList } from '@wsc/api-client';

import type { BffConfig } from '../../lib/config.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import { createRouter } from '../../lib/create-app.ts';
import { sessionDefinitions } from '../../lib/session-definitions.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth, unauthenticated } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';

const noStore = { 'cache-control': 'no-store' };

/**
 * The `/bff/definitions` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createDefinitionsRouter({ config, sessions, workspace, api }));
 */
export function createDefinitionsRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  workspace: WorkspaceStore;
  api: SessionApi;
}) {
  const { config, sessions, workspace, api } = deps;
  const router = createRouter();

  router.get(
    '/definitions',
    csrf({ unsafeOnly: true }),
    sessionMiddleware(sessions),
    requireAuth,
    async (c) => {
      const session = c.var.session;
      if (!session) throw unauthenticated(false);
      const region = config.regions.find((r) => r.id === session.region);
      if (!region) {
        await sessions.destroy(session.idHash);
        throw unauthenticated(true);
      }
      try {
        const reply: DefinitionList = {
          items: await sessionDefinitions({ workspace, api }, session, region, c.req.raw.signal),
        };
        return c.json(reply, 200, noStore);
      } catch (error) {
        throw await api.failure(error, session);
      }
    },
  );

  return router;
}
