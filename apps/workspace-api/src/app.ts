// Builds the app (house rule 7: app.ts builds, index.ts serves). Everything arrives through deps,
// so tests build apps with their own config and database.
import type { DatabaseHandle } from './db/client.ts';
import type { Config } from './env.ts';
import type { RouteSpec } from './lib/openapi.ts';
import type { AppDeps, Logger } from './lib/types.ts';
import type { Workspace } from './workspace/definitions.ts';
import { UploadGate } from './attachments/uploads.ts';
import { openDatabase } from './db/client.ts';
import { migrateToLatest, readSetting } from './db/migrate.ts';
import { requireAuth } from './lib/auth.ts';
import { createApp, createRouter } from './lib/create-app.ts';
import { createLogger } from './lib/logger.ts';
import { createApiMetrics } from './lib/metrics.ts';
import { TokenBucketLimiter } from './lib/rate-limit.ts';
import { rateLimitPerCredential } from './lib/request-limit.ts';
import { SecretChecker } from './oauth/secret-check.ts';
import { TokenPurger } from './oauth/token-purge.ts';
import { attachmentsRouter } from './routes/attachments/attachments.index.ts';
import { attachmentsRoutes } from './routes/attachments/attachments.routes.ts';
import { commentsRouter } from './routes/comments/comments.index.ts';
import { commentsRoutes } from './routes/comments/comments.routes.ts';
import { credentialsRouter } from './routes/credentials/credentials.index.ts';
import { credentialsRoutes } from './routes/credentials/credentials.routes.ts';
import { definitionsRouter } from './routes/definitions/definitions.index.ts';
import { definitionsRoutes } from './routes/definitions/definitions.routes.ts';
import { elementsRouter } from './routes/elements/elements.index.ts';
import { groupsRouter } from './routes/groups/groups.index.ts';
import { groupsRoutes } from './routes/groups/groups.routes.ts';
import { meRouter } from './routes/me/me.index.ts';
import { meRoutes } from './routes/me/me.routes.ts';
import { oauthRouter } from './routes/oauth/oauth.index.ts';
import { oauthRoutes } from './routes/oauth/oauth.routes.ts';
import { openapiRouter, openapiRoutes } from './routes/openapi/openapi.index.ts';
import { recordsRouter } from './routes/records/records.index.ts';
import { recordsRoutes } from './routes/records/records.routes.ts';
import { relatedItemsRouter } from './routes/related-items/related-items.index.ts';
import { relatedItemsRoutes } from './routes/related-items/related-items.routes.ts';
import { usersRouter } from './routes/users/users.index.ts';
import { usersRoutes } from './routes/users/users.routes.ts';
import { watchersRouter } from './routes/watchers/watchers.index.ts';
import { watchersRoutes } from './routes/watchers/watchers.routes.ts';
import { loadWorkspace } from './workspace/definitions.ts';
import { syncWorkspace } from './workspace/sync.ts';

/** Every route's description, for `GET /v1/openapi.json`. Add a resource's specs here. */
export const ROUTE_SPECS: RouteSpec[] = [
  ...oauthRoutes,
  ...openapiRoutes,
  ...meRoutes,
  ...definitionsRoutes,
  ...usersRoutes,
  ...credentialsRoutes,
  ...groupsRoutes,
  ...recordsRoutes,
  ...relatedItemsRoutes,
  ...attachmentsRoutes,
  ...watchersRoutes,
  ...commentsRoutes,
];

/**
 * The complete app for some deps, in the profile of `deps.config.profile`.
 *
 * @example
 * const app = buildApp(deps);
 * const res = await app.request('/v1/me', { headers: { Authorization: `Bearer ${token}` } });
 */
export function buildApp(deps: AppDeps) {
  const hosted = deps.config.profile === 'hosted';
  const app = createApp(deps);
  // Process readiness, outside /v1: served in both profiles.
  app.get('/health', (c) => c.json({ status: 'ok', region: deps.config.region }));
  app.route('/', oauthRouter);
  // Public: the API description needs no token. Extensions are not mounted in the hosted profile.
  if (!hosted) app.route('/v1', openapiRouter);

  const v1 = createRouter();
  v1.use('*', requireAuth, rateLimitPerCredential);
  if (!hosted) {
    v1.route('/', meRouter);
    v1.route('/', definitionsRouter);
    v1.route('/', credentialsRouter);
  }
  v1.route('/', usersRouter);
  v1.route('/', groupsRouter);
  // Sub-resources of records are registered before the generic `/{recordType}/{alias}/{id}` routes.
  v1.route('/', relatedItemsRouter);
  v1.route('/', attachmentsRouter);
  v1.route('/', watchersRouter);
  v1.route('/', commentsRouter);
  // Hosted: `GET /elements/{alias}` is the published getElement, not a record search.
  if (hosted) v1.route('/', elementsRouter);
  v1.route('/', recordsRouter);
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
  await syncWorkspace(database.db, workspace, { trgm: database.trgm });
  const cursorKey = Buffer.from(await readSetting(database.db, 'cursor_key'), 'base64url');
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const uploads = new UploadGate();
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    trgm: database.trgm,
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
  };
  return { deps, close: database.close };
}
