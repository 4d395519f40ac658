// Builds the app (house rule 7: app.ts builds, index.ts serves). Everything arrives through deps,
// so tests build apps with their own config and database.
import type { DatabaseHandle } from './db/client.ts';
import type { Config } from './env.ts';
import type { AppDeps, Logger, Principal } from './lib/types.ts';
import type { Workspace } from './workspace/definitions.ts';
import { UploadGate } from './attachments/uploads.ts';
import { openDatabase } from './db/client.ts';
import { migrateToLatest, readSetting } from './db/migrate.ts';
import { AUTH_CHANNEL, TokenCache } from './identity/token-cache.ts';
import { requireAuth } from './lib/auth.ts';
import { createApp, createRouter } from './lib/create-app.ts';
import { createLogger } from './lib/logger.ts';
import { createApiMetrics } from './lib/metrics.ts';
import { TokenBucketLimiter } from './lib/rate-limit.ts';
import { rateLimitPerCredential } from './lib/request-limit.ts';
import { mountRoutes } from './lib/route.ts';
import { SecretChecker } from './oauth/secret-check.ts';
import { TokenPurger } from './oauth/token-purge.ts';
import { ROUTES } from './routes/index.ts';
import { loadWorkspace } from './workspace/load-workspace.ts';
import { syncWorkspace } from './workspace/sync.ts';

/**
 * The complete app for some deps, in the profile of `deps.config.profile`.
 *
 * @example
 * const app = buildApp(deps);
 * const res = await app.request('/v1/me', { headers: { Authorization: `Bearer ${token}` } });
 */
export function buildApp(deps: AppDeps) {
  const app = createApp(deps);
  // Process readiness, outside /v1: served in both profiles.
  app.get('/health', (c) => c.json({ status: 'ok', region: deps.config.region }));
  const served = ROUTES.filter(
    ({ spec }) => spec.profile === undefined || spec.profile === deps.config.profile,
  );
  // Public (`auth: false`): the token endpoint and the API description need no token.
  mountRoutes(
    app,
    served.filter(({ spec }) => spec.auth === false),
  );
  const v1 = createRouter();
  v1.use('*', requireAuth, rateLimitPerCredential);
  mountRoutes(
    v1,
    served.filter(({ spec }) => spec.auth !== false),
    '/v1',
  );
  app.route('/v1', v1);
  return app;
}

export type App = ReturnType<typeof buildApp>;

export type InitOptions = {
  /** An already open database (tests); otherwise opened from config. */
  database?: DatabaseHandle;
  logger?: Logger;
  workspace?: Workspace;
};

/**
 * Opens the database, migrates, loads and syncs the workspace, and returns ready deps.
 *
 * @example
 * const { deps, close } = await initDeps(loadConfig());
 * serve({ fetch: buildApp(deps).fetch, port: deps.config.port });
 */
export async function initDeps(
  config: Config,
  options: InitOptions = {},
): Promise<{ deps: AppDeps; close: () => Promise<void> }> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: config.databaseUrl ? undefined : `${config.dataDir}/pg`,
      pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    }));
  await migrateToLatest(database.db);
  const workspace = options.workspace ?? (await loadWorkspace(config.workspaceFile));
  await syncWorkspace(database.db, workspace, database);
  const cursorKey = Buffer.from(await readSetting(database.db, 'cursor_key'), 'base64url');
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const uploads = new UploadGate();
  const tokenCache = new TokenCache<Principal>(config.tokenCache);
  const stopListening = await database.listen(AUTH_CHANNEL, {
    onNotify: () => tokenCache.invalidate(),
    onState: (listening) => {
      tokenCache.setListening(listening);
      if (!listening)
        logger.warn(
          'auth notifications lost: token lookups uncached until the listener reconnects',
          {
            channel: AUTH_CHANNEL,
          },
        );
    },
  });
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    trgm: database.trgm,
    btreeGin: database.btreeGin,
    workspace,
    cursorKey,
    logger,
    limiters: {
      requests: new TokenBucketLimiter(config.rateLimit),
      tokenFailures: new TokenBucketLimiter(config.tokenFailureLimit),
      tokenFailuresByAddress: new TokenBucketLimiter(config.tokenFailureAddressLimit),
      searchTime: new TokenBucketLimiter(config.searchTimeBudget),
    },
    secrets: new SecretChecker(config.secretCheck),
    uploads,
    metrics: createApiMetrics(uploads),
    tokenPurger: new TokenPurger(database.db, config.tokenPurgeIntervalSeconds * 1000, logger),
    tokenCache,
  };
  return {
    deps,
    close: async () => {
      await stopListening();
      await database.close();
    },
  };
}
