// Builds the BFF from injected parts (config, store, clock, logger, fetch) so tests control them.
import type { Hono } from 'hono';

import type { SessionStore } from './db/store.ts';
import type { Clock } from './lib/clock.ts';
import type { BffConfig } from './lib/config.ts';
import type { AppEnv } from './lib/create-app.ts';
import type { Logger } from './lib/logger.ts';
import { systemClock } from './lib/clock.ts';
import { createBaseApp } from './lib/create-app.ts';
import { createSealer } from './lib/crypto.ts';
import { problemResponse } from './lib/errors.ts';
import { createLogger } from './lib/logger.ts';
import { createFailureLimiter } from './lib/rate-limit.ts';
import { createSessions } from './lib/sessions.ts';
import { createTokenManager } from './lib/upstream.ts';
import { createAuthRouter } from './routes/auth/auth.index.ts';
import { createHealthRouter } from './routes/health/health.index.ts';
import { unsafeTargetReason } from './routes/proxy/proxy-rules.ts';
import { createProxyRouter } from './routes/proxy/proxy.index.ts';
import { createSavedViewsRouter } from './routes/saved-views/saved-views.index.ts';
import { createStaticRouter } from './routes/static/static.index.ts';

export type AppDeps = {
  config: BffConfig;
  store: SessionStore;
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Source of jitter for retry backoff. */
  random?: () => number;
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
  const doFetch = deps.fetch ?? globalThis.fetch;
  const { config, store } = deps;
  const sealer = createSealer(config.sessionSecret);
  const tokens = createTokenManager({ config, store, clock, sealer, fetch: doFetch, logger });
  const sessions = createSessions({ config, store, clock, sealer, tokens, logger });
  const limiter = createFailureLimiter({ ...config.loginRateLimit, clock });

  const app = createBaseApp(logger);

  // Judged on the raw request target, before any URL normalisation or routing could hide it.
  app.use(async (c, next) => {
    const url = c.req.url;
    const target = c.env?.incoming?.url ?? url.slice(url.indexOf('/', url.indexOf('//') + 2));
    const reason = unsafeTargetReason(target);
    if (reason) {
      return problemResponse({
        status: 400,
        code: 'bad_path',
        title: 'Bad Request',
        detail: `Refused: ${reason}`,
      });
    }
    return next();
  });

  app.route('/bff', createHealthRouter({ config, store, fetch: doFetch }));
  app.route('/bff', createAuthRouter({ config, sessions, limiter, clock, fetch: doFetch, logger }));
  app.route('/bff', createSavedViewsRouter({ db: store.db, sessions, clock }));
  app.route(
    '/api',
    createProxyRouter({
      config,
      sessions,
      tokens,
      logger,
      random: deps.random ?? Math.random,
    }),
  );
  app.route('/', createStaticRouter(config.publicDir));
  return app;
}
