// Routes declared once: a RouteSpec (lib/openapi.ts) is both the entry of `GET /v1/openapi.json`
// and the router's: its path and method are mounted as they are, its profile and published
// operation choose the middleware, and its params, query and body are what the handler can read,
// validated by the spec's schemas when the handler asks for them (so a handler keeps its order:
// authorization and resource checks first, then the input).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';

import type { Profile } from '../env.ts';
import type { RouteSpec } from './openapi.ts';
import type { PublishedOperation } from './profile.ts';
import type { AppEnv } from './types.ts';
import { jsonBodyLimit } from './body.ts';
import { notFound } from './errors.ts';
import { pageQueryProblem } from './paging.ts';
import { publishedQuery } from './profile.ts';
import { parseJsonBody } from './validation.ts';

/**
 * The detail of the 404 for a path parameter that fails its schema: it names no resource, so the
 * answer is the one a well-formed but unknown id gets.
 *
 * @example
 * missing('userId', { userId: 'x' }, '/v1/users/x'); // 'No user x'
 */
function missing(name: PropertyKey | undefined, raw: Record<string, string>, path: string) {
  if (typeof name !== 'string' || !name.endsWith('Id')) return `No resource at ${path}`;
  return `No ${name.slice(0, -2)} ${raw[name] ?? ''}`;
}

/** A route of the API: its description, and how it is served. */
export type Route = RouteSpec & {
  /** The published operation it implements: the hosted profile refuses undeclared query parameters. */
  operation?: PublishedOperation;
  /** Served in this profile only (default: both). */
  profile?: Profile;
  /** Left out of `GET /v1/openapi.json` (default: described, unless hosted-only). */
  described?: false;
};

type Output<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;

/** What a handler reads of its request, typed and validated by its route's spec. */
export type RouteInput<S extends Route> = {
  /** Path parameters. One that fails its schema (a malformed id) names no resource: 404. */
  params: () => Output<S['params']>;
  /** Query parameters (unknown ones dropped). A failure is a 400 (only paging can fail). */
  query: () => Output<S['query']>;
  /** The JSON body: 413 past 1 MiB, 400 when malformed or empty, 422 naming every bad field. */
  body: () => Promise<S['body'] extends { schema: infer B } ? Output<B> : never>;
};

export type RouteHandler<S extends Route> = (
  c: Context<AppEnv>,
  input: RouteInput<S>,
) => Response | Promise<Response>;

/** A route with its handler, as the registry (routes/index.ts) lists them. */
export type BoundRoute = { spec: Route; handler: (c: Context<AppEnv>) => Promise<Response> };

/**
 * Declares a route (types kept, so its handler is typed by it).
 *
 * @example
 * export const getUser = defineRoute({ method: 'get', path: '/v1/users/{userId}', params: z.object({ userId: z.uuid() }), ... });
 */
export function defineRoute<const S extends Route>(spec: S): S {
  return spec;
}

/**
 * Validates a raw query map with a route's query schema; a failure is the paging problem (400).
 *
 * @example
 * const query = validateQuery(PageQuerySchema, c.req.query());
 */
export function validateQuery<T extends z.ZodType>(
  schema: T,
  raw: Record<string, string>,
): z.output<T> {
  const result = schema.safeParse(raw);
  if (!result.success) throw pageQueryProblem(result.error);
  return result.data;
}

function inputOf<S extends Route>(c: Context<AppEnv>, spec: S): RouteInput<S> {
  return {
    params: () => {
      if (!spec.params) return {} as Output<S['params']>;
      const raw = c.req.param() as Record<string, string>;
      const result = spec.params.safeParse(raw);
      if (!result.success) throw notFound(missing(result.error.issues[0]?.path[0], raw, c.req.path));
      return result.data as Output<S['params']>;
    },
    query: () => (spec.query ? validateQuery(spec.query, c.req.query()) : {}) as Output<S['query']>,
    body: async () => {
      const body = spec.body;
      if (!body || (body.contentType ?? 'application/json') !== 'application/json') {
        throw new Error(`${spec.method} ${spec.path} takes no JSON body`);
      }
      return parseJsonBody(c, body.schema) as Promise<
        S['body'] extends { schema: infer B } ? Output<B> : never
      >;
    },
  };
}

/**
 * Pairs a route with its handler.
 *
 * @example
 * export const usersRoutes = [bind(routes.getUser, getUser)];
 */
export function bind<S extends Route>(spec: S, handler: RouteHandler<S>): BoundRoute {
  return { spec, handler: async (c) => handler(c, inputOf(c, spec)) };
}

/**
 * Hono's pattern for an OpenAPI path: `{name}` -> `:name`, and an enum parameter is constrained
 * to its values (`:recordType{apps|elements|tasks|transactions}`), so other paths never reach it.
 */
export function honoPath(spec: RouteSpec): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const schema = spec.params?.shape[name];
    return schema instanceof z.ZodEnum ? `:${name}{${schema.options.join('|')}}` : `:${name}`;
  });
}

/** Bodies read whole (JSON, text) are limited up front; uploads and the token form count their own. */
function readsWholeBody(spec: RouteSpec): boolean {
  const type = spec.body?.contentType ?? 'application/json';
  return spec.body !== undefined && (type === 'application/json' || type === 'text/plain');
}

/**
 * Mounts routes on a router in the order given, each path relative to the router's `prefix`.
 *
 * @example
 * mountRoutes(v1, authenticated, '/v1');
 */
export function mountRoutes(router: Hono<AppEnv>, routes: BoundRoute[], prefix = ''): void {
  for (const { spec, handler } of routes) {
    const middleware: MiddlewareHandler<AppEnv>[] = [];
    if (spec.operation) middleware.push(publishedQuery(spec.operation));
    if (readsWholeBody(spec)) middleware.push(jsonBodyLimit);
    const path = honoPath(spec).slice(prefix.length);
    // Hono types `on` per handler count; the list here is of any length.
    const chain: MiddlewareHandler<AppEnv>[] = [...middleware, handler];
    router.on(spec.method.toUpperCase(), path, ...(chain as [MiddlewareHandler<AppEnv>]));
  }
}
