// Builds the BFF from injected parts (config, store, clock, logger, fetch) so tests control them.
import type { Hono } from 'hono';
import { compress } from 'hono/compress';

import type { SessionRecord, SessionStore } from './db/store.ts';
import type { AppEnv } from './lib/app-env.ts';
import type { Clock } from './lib/clock.ts';
import type { BffConfig } from './lib/config.ts';
import type { Logger } from './lib/logger.ts';
import type { BffMetrics } from './lib/metrics.ts';
import type { RecordChangeBus } from './lib/record-changes.ts';
import type { Region } from './lib/region.ts';
import type { Sessions } from './lib/sessions.ts';
import type { TokenStyles } from './lib/upstream-auth.ts';
import type { LiveHub } from './routes/events/events.hub.ts';
import { createAuthority } from './lib/authority.ts';
import { systemClock } from './lib/clock.ts';
import { createBaseApp } from './lib/create-app.ts';
import { createSealer } from './lib/crypto.ts';
import { ProblemException } from './lib/errors.ts';
import { identitiesSource } from './lib/identities-source.ts';
import { createLogger } from './lib/logger.ts';
import { createBffMetrics } from './lib/metrics.ts';
import { sessionsOverCap, signInRate } from './lib/person-sessions.ts';
import { agentFetch } from './lib/pool-fetch.ts';
import { createProfileDetector } from './lib/profiles.ts';
import { createFailureLimiter } from './lib/rate-limit.ts';
import { createRecordChangeBus } from './lib/record-changes.ts';
import { createSessionApi } from './lib/session-api.ts';
import { sessionDefinitions } from './lib/session-definitions.ts';
import { createSessions } from './lib/sessions.ts';
import { createTokenManager } from './lib/token-manager.ts';
import { createUpstreamAgents, warmConnections } from './lib/upstream-pool.ts';
import { createVisibility } from './lib/visible-definitions.ts';
import { workspaceStore } from './lib/workspace-store.ts';
import { bodyGuard } from './middlewares/body-limit.ts';
import { requestDeadline } from './middlewares/request-deadline.ts';
import { sessionRate } from './middlewares/session-rate.ts';
import { createAuthRouter } from './routes/auth/auth.index.ts';
import { createBulkRunsRouter } from './routes/bulk-runs/bulk-runs.index.ts';
import { createDefinitionsRouter } from './routes/definitions/definitions.index.ts';
import { createLiveHub } from './routes/events/events.hub.ts';
import { createEventsRouter } from './routes/events/events.index.ts';
import { personStreams } from './routes/events/person-streams.ts';
import { recordReadable } from './routes/events/record-readable.ts';
import { createHealthRouter } from './routes/health/health.index.ts';
import { createHistoryRouter } from './routes/history/history.index.ts';
import { createHistoryRecorder } from './routes/history/history.recorder.ts';
import { historyStore } from './routes/history/history.store.ts';
import { createOpenApiRouter } from './routes/openapi/openapi.index.ts';
import { unsafeTargetReason } from './routes/proxy/proxy-rules.ts';
import { createProxyRouter } from './routes/proxy/proxy.index.ts';
import { RecordCopies } from './routes/proxy/record-copies.ts';
import { createSavedViewsRouter } from './routes/saved-views/saved-views.index.ts';
import { ownViewsIn } from './routes/saved-views/saved-views.own.ts';
import { createStaticRouter } from './routes/static/static.index.ts';
import { createWorkspaceRouter } from './routes/workspace/workspace.index.ts';

export type AppDeps = {
  config: BffConfig;
  store: SessionStore;
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Source of jitter for retry backoff. */
  random?: () => number;
  /** Prometheus metrics (index.ts serves them on BFF_METRICS_PORT); tests read the registry. */
  metrics?: BffMetrics;
  /**
   * Changes made through the console: the proxy publishes, the record history and the
   * live events subscribe. One per app unless given (tests publish to their own).
   */
  recordChanges?: RecordChangeBus;
  /** Called with the app's live events hub (index.ts closes it at shutdown; tests read it). */
  onLiveHub?: (hub: LiveHub) => void;
};

/**
 * Build the BFF. `index.ts` serves it; tests call `app.request()` or serve it on a loopback port.
 *
 * @example
 * const app = createApp({ config, store: await openStore({ kind: 'memory' }) });
 * const res = await app.request('/bff/health');
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger({});
  const { config, store } = deps;
  const metrics = deps.metrics ?? createBffMetrics({ store, clock, regions: config.regions });
  // One connection pool per region for the proxy and the BFF's own calls, warmed at sign-in
  // (ADR 0029); sized by the region's in-flight cap (see createUpstreamAgents).
  const agents = createUpstreamAgents(config.inFlight.perRegion);
  const doFetch = metrics.countTokenCalls(deps.fetch ?? agentFetch(agents));
  const random = deps.random ?? Math.random;
  const sealer = createSealer(config.sessionSecret);
  // Per region, in memory: the token request style that worked, and the detected profile.
  const tokenStyles: TokenStyles = new Map();
  const profiles = createProfileDetector({
    fetch: doFetch,
    timeoutMs: config.upstreamTimeoutMs,
    logger,
  });
  const tokens = createTokenManager({
    config,
    store,
    clock,
    sealer,
    fetch: doFetch,
    logger,
    styles: tokenStyles,
  });
  const baseSessions = createSessions({ config, store, clock, sealer, tokens, logger });
  const limiter = createFailureLimiter({ db: store.db, ...config.loginRateLimit, clock });
  const recordChanges =
    deps.recordChanges ??
    createRecordChangeBus((error) => {
      logger.warn('record change listener failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  // Signing out ends the session's event streams at once, on every instance; a sign-in past the
  // person's cap ends their oldest sessions the same way, and sign-ins have a rate per person
  // (ADR 0027).
  const signIns = signInRate({ clock, rate: config.fairness.signInsPerCredential });
  const sessions: Sessions = {
    ...baseSessions,
    async create(input) {
      signIns.admit(input.region, input.clientId);
      const created = await baseSessions.create(input);
      const { ownerId, idHash } = created.record;
      const max = config.fairness.sessionsPerPerson;
      for (const old of await sessionsOverCap(store.db, ownerId, idHash, max)) {
        await sessions.destroy(old);
      }
      return created;
    },
    async destroy(idHash) {
      await baseSessions.destroy(idHash);
      await live.sessionEnded(idHash);
    },
  };
  const api = createSessionApi({ config, sessions, tokens, fetch: doFetch, random });
  const workspace = workspaceStore(store.db);
  // The records just proxied to each session (ADR 0029): filled by the proxy and the sign-in.
  const copies = new RecordCopies(config.recordCopies, clock);
  // Authority and visibility as they are now, not as they were at sign-in (ADR 0027).
  const identities = identitiesSource({
    file: config.identitiesFile,
    initial: config.identities,
    clock,
    logger,
  });
  const authority = createAuthority({ config, api, identities, clock });
  const visibility = createVisibility({ config, workspace, api, clock });
  const history = historyStore(store.db, {
    retentionMs: config.historyRetentionMs,
    budget: config.historyBudget,
  });
  /** The definitions a session can see (none when its region left the configuration). */
  const definitionsOf = async (session: SessionRecord, signal?: AbortSignal) => {
    const region = config.regions.find((r) => r.id === session.region);
    return region ? sessionDefinitions({ workspace, api }, session, region, signal) : [];
  };
  const definitionOf = async (session: SessionRecord, recordType: string, alias: string) =>
    (await definitionsOf(session)).find((d) => d.recordType === recordType && d.alias === alias);
  const live = createLiveHub({
    store,
    clock,
    logger,
    config: config.liveEvents,
    fairness: config.fairness,
    idleTimeoutMs: config.idleTimeoutMs,
    bus: recordChanges,
    visible: (session, options) => visibility.visible(session, options),
    credentialsRejected: (session) => sessions.destroy(session.idHash),
    recordReadable: recordReadable({ api, config, clock }),
  });
  deps.onLiveHub?.(live);

  const app = createBaseApp(logger, config.trustProxy);
  // The proxy answers on the socket itself: its status is sentStatus, not the marker response's.
  app.use(metrics.middleware<AppEnv>({ status: (c) => c.var.sentStatus ?? c.res.status }));

  app.use(async (c, next) => {
    c.set('publicOrigins', config.publicOrigins);
    return next();
  });
  app.use(requestDeadline(config.server.requestTimeoutMs));
  // Every /bff route reads at most a JSON body: one limit in front of them all, so a route added
  // later is bounded too (sign-in and saved views set tighter ones of their own).
  app.use('/bff/*', bodyGuard(config.maxJsonBodyBytes));
  // One session's requests to the BFF's own routes, per second (ADR 0027).
  app.use('/bff/*', sessionRate({ sessions, clock, rate: config.fairness.requestsPerSession }));

  // Judged on the raw request target, before any URL normalisation or routing could hide it.
  app.use(async (c, next) => {
    const url = c.req.url;
    const target = c.env?.incoming?.url ?? url.slice(url.indexOf('/', url.indexOf('//') + 2));
    const reason = unsafeTargetReason(target);
    if (reason) {
      throw new ProblemException({
        status: 400,
        code: 'bad_path',
        title: 'Bad Request',
        detail: `Refused: ${reason}`,
      });
    }
    return next();
  });

  // The BFF's own JSON (sessions, definitions, up to 500 saved views) as gzip or deflate when the
  // browser accepts it, over 1 KiB; streamed (CompressionStream), never buffered.
  app.use('/bff/*', compress({ contentTypeFilter: /^application\/(?:problem\+)?json/ }));
  app.route('/bff', createHealthRouter({ config, store, fetch: doFetch }));
  app.route('/bff', createOpenApiRouter());
  app.route(
    '/bff',
    createAuthRouter({
      config,
      sessions,
      limiter,
      clock,
      fetch: doFetch,
      logger,
      profiles,
      tokenStyles,
      // Only when the BFF's own calls use the pool: an injected fetch would not take the spares.
      ...(deps.fetch ? {} : { warm: (region: Region) => warmConnections(agents, region.apiUrl) }),
      signIns,
      workspace,
      copies,
      ownViews: ownViewsIn(store.db),
    }),
  );
  app.route(
    '/bff',
    createSavedViewsRouter({ db: store.db, sessions, clock, config, workspace, api, visibility }),
  );
  app.route('/bff', createBulkRunsRouter({ db: store.db, sessions, clock, api, visibility }));
  app.route(
    '/bff',
    createHistoryRouter({
      config,
      sessions,
      api,
      history,
      db: store.db,
      logger,
      authority,
      visibility,
    }),
  );
  app.route(
    '/bff',
    createEventsRouter({
      hub: live,
      api,
      config,
      sessions,
      personStreams: personStreams({
        db: store.db,
        clock,
        max: config.fairness.streamsPerPerson,
      }),
    }),
  );
  app.route('/bff', createDefinitionsRouter({ config, sessions, workspace, api }));
  app.route('/bff', createWorkspaceRouter({ config, sessions, workspace, api, clock, authority }));
  app.route(
    '/api',
    createProxyRouter({
      config,
      sessions,
      tokens,
      logger,
      random,
      metrics,
      clock,
      recordChange: createHistoryRecorder({ history, bus: recordChanges, logger, metrics }),
      // Only the hosted service answers a record without `id` (our API always names it).
      handleFieldOf: async (session, recordType, alias) =>
        session.profile === 'hosted'
          ? (await definitionOf(session, recordType, alias))?.handleField
          : undefined,
      definitionOf,
      agents,
      copies,
    }),
  );
  app.route('/', createStaticRouter(config.publicDir));
  return app;
}
