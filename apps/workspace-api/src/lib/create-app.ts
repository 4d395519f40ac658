// App factory (Hono starter pattern): request id, deps in `c.var`, access log, JSON 404/405 and the
// one onError that turns every thrown error into the profile's error reply.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { ZodError } from 'zod';

import type { ProblemInit } from './errors.ts';
import type { AppDeps, AppEnv } from './types.ts';
import { errorResponse, ProblemException } from './errors.ts';
import { refuseBadTextInUrl } from './text.ts';

/**
 * A sub-app mounted with `app.route()` (app.ts mounts the authenticated routes on one).
 *
 * @example
 * const v1 = createRouter();
 * mountRoutes(v1, routes, '/v1');
 */
export function createRouter() {
  return new Hono<AppEnv>({ strict: false });
}

function zodProblemInit(error: ZodError): ProblemInit {
  return {
    detail: 'The request is malformed',
    errors: error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    })),
  };
}

/**
 * Maps any thrown value to an error reply in the app's profile (see errorResponse): problems as
 * they are, zod and JSON syntax errors to 400, anything else to a logged 500 without internals.
 *
 * @example
 * app.onError(handleError);
 */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  const profile = c.var.deps.config.profile;
  if (error instanceof ProblemException) return errorResponse(profile, error.status, error.init);
  if (error instanceof HTTPException) {
    // Hono's own (e.g. a body limit): keep its headers, render its message in our format.
    const headers: Record<string, string> = {};
    error.getResponse().headers.forEach((value, key) => {
      if (key !== 'content-type' && key !== 'content-length') headers[key] = value;
    });
    return errorResponse(profile, error.status, {
      ...(error.message ? { detail: error.message } : {}),
      headers,
    });
  }
  if (error instanceof ZodError) return errorResponse(profile, 400, zodProblemInit(error));
  if (error instanceof SyntaxError)
    return errorResponse(profile, 400, { detail: 'Malformed JSON body' });
  c.var.deps.logger.error('unhandled error', {
    requestId: c.var.requestId,
    method: c.req.method,
    path: c.req.path,
    error: error.stack ?? String(error),
  });
  return errorResponse(profile, 500, {
    detail: 'Unexpected error',
    extra: { requestId: c.var.requestId },
  });
}

/** Hono's own route pattern to a RegExp, for the 405 check. */
function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) {
        const custom = /\{(.+)\}$/.exec(part);
        return custom ? `(?:${custom[1]})` : '[^/]+';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * The root app with the cross-cutting middleware; routes are added by app.ts.
 *
 * @example
 * const app = createApp(deps);
 * mountRoutes(app, ROUTES);
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.use(deps.metrics.middleware());
  app.use(requestId({ headerName: 'X-Request-Id' }));
  app.use(async (c, next) => {
    c.set('deps', deps);
    const started = performance.now();
    await next();
    // Responses built as raw Response objects (problems, 404/405) do not carry c.header() values.
    if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', c.var.requestId);
    // Every request at debug (LOG_LEVEL=debug). The id is the caller's X-Request-Id when it sent
    // one (the BFF does), so one console action can be followed across both servers.
    deps.logger.debug('request', {
      requestId: c.var.requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  });

  // Before any route: a NUL in the path or query never reaches a handler or the database.
  app.use(refuseBadTextInUrl);

  let compiled: Array<{ method: string; regex: RegExp }> | undefined;
  app.notFound((c) => {
    compiled ??= app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({ method: route.method, regex: patternToRegExp(route.path) }));
    const allowed = [
      ...new Set(compiled.filter((r) => r.regex.test(c.req.path)).map((r) => r.method)),
    ];
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      return errorResponse(deps.config.profile, 405, {
        detail: `${c.req.method} is not allowed here`,
        headers: { Allow: allowed.join(', ') },
      });
    }
    return errorResponse(deps.config.profile, 404, {
      detail: `No route ${c.req.method} ${c.req.path}`,
    });
  });
  app.onError(handleError);
  return app;
}
