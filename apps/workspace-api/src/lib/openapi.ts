// Route descriptions for `GET /v1/openapi.json`, built from the same zod schemas the handlers and
// clients use (zod 4's z.toJSONSchema), so the document cannot drift from the contract.
import { z } from 'zod';

export type ResponseSpec = { description: string; schema?: z.ZodType; contentType?: string };

export type RouteSpec = {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI path, e.g. `/v1/{recordType}/{alias}`. */
  path: string;
  summary: string;
  tags: string[];
  /** Bearer token required (default true). */
  auth?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; contentType?: string; required?: boolean };
  responses: Record<number, ResponseSpec>;
};

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

function toSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'openapi-3.0',
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function parameters(spec: RouteSpec) {
  const list: Array<Record<string, unknown>> = [];
  for (const [location, object] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (!object) continue;
    for (const [name, schema] of Object.entries(object.shape)) {
      const field = schema as z.ZodType;
      list.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        schema: toSchema(field, 'input'),
      });
    }
  }
  return list;
}

/**
 * Builds the OpenAPI 3.0 document for the given routes.
 *
 * @example
 * const doc = buildOpenApiDocument([routes.listUsers, routes.getUser], { version: '1.0.0' });
 */
export function buildOpenApiDocument(
  routes: RouteSpec[],
  info: { version: string; serverUrl?: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      const isProblem = Number(status) >= 400;
      const contentType =
        response.contentType ?? (isProblem ? 'application/problem+json' : 'application/json');
      const schema = response.schema
        ? toSchema(response.schema, 'output')
        : isProblem
          ? PROBLEM_REF
          : undefined;
      responses[status] = {
        description: response.description,
        ...(schema ? { content: { [contentType]: { schema } } } : {}),
      };
    }
    const operation: Record<string, unknown> = {
      summary: spec.summary,
      tags: spec.tags,
      parameters: parameters(spec),
      responses,
      ...(spec.auth === false ? { security: [] } : {}),
    };
    if (spec.body) {
      operation.requestBody = {
        required: spec.body.required ?? true,
        content: {
          [spec.body.contentType ?? 'application/json']: {
            schema: toSchema(spec.body.schema, 'input'),
          },
        },
      };
    }
    (paths[spec.path] ??= {})[spec.method] = operation;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Records and Workspace API',
      version: info.version,
      description:
        'Workspace Console implementation of the Records and Workspace API (see docs/api.md for extensions).',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        clientCredentials: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } },
        },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    paths,
  };
}

/** Responses most authenticated routes share. */
export const COMMON_ERRORS: Record<number, ResponseSpec> = {
  400: { description: 'Malformed request or parameter' },
  401: { description: 'Missing, wrong, expired or revoked token' },
  429: { description: 'Rate limit exceeded' },
};
