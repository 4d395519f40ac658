// Test-only: reading the repo's copy of the hosted API's published OpenAPI: its schemas with
// references resolved, its examples (mostly Java `Map.toString()` text) as JSON, and its operations
// for matching requests.
import { readFileSync } from 'node:fs';

import { OPENAPI_PATH } from './prism.ts';

export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  required?: string[];
  enum?: string[];
  additionalProperties?: OpenApiSchema | boolean;
  example?: unknown;
  [key: string]: unknown;
}

export interface OpenApiParameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: OpenApiSchema;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: OpenApiSchema }> }>;
  servers?: { url: string }[];
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, OpenApiSchema>;
    parameters: Record<string, OpenApiParameter>;
  };
}

/** The published document, parsed once. */
export const spec = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;

/**
 * A component schema by name; throws when the document no longer defines it.
 *
 * @example
 * componentSchema('User').properties?.email?.type; // 'string'
 */
export function componentSchema(name: string): OpenApiSchema {
  const schema = spec.components.schemas[name];
  if (!schema) throw new Error(`The hosted OpenAPI no longer defines ${name}`);
  return schema;
}

/**
 * A schema with every `$ref` replaced by its target (the components used here have no cycles).
 *
 * @example
 * deref({ $ref: '#/components/schemas/UserPagedList' }).properties?.items?.items?.properties?.id;
 */
export function deref(schema: OpenApiSchema, depth = 0): OpenApiSchema {
  if (depth > 20) throw new Error('schema nesting too deep (a cycle?)');
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return deref(componentSchema(name), depth + 1);
  }
  const out: OpenApiSchema = { ...schema };
  delete out.example;
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, deref(value, depth + 1)]),
    );
  }
  if (schema.items) out.items = deref(schema.items, depth + 1);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = deref(schema.additionalProperties, depth + 1);
  }
  return out;
}

/**
 * Reads the hosted examples, which are mostly Java `Map.toString()` text
 * (`{id=1, target={...}, tags=[a, b]}`), into plain objects whose leaves are strings.
 *
 * @example
 * parseJavaMap('{a=1, b={c=x, y}, d=[p, q], e=}'); // { a: '1', b: { c: 'x, y' }, d: ['p', 'q'], e: '' }
 */
export function parseJavaMap(text: string): unknown {
  let i = 0;
  const value = (terminators: string): unknown => {
    if (text[i] === '{') return map();
    if (text[i] === '[') return list();
    const start = i;
    while (i < text.length) {
      const ch = text[i] ?? '';
      if (terminators.includes(ch)) break;
      // A comma ends a map value only when a `key=` follows (values may contain commas).
      if (ch === ',' && (terminators.includes(']') || /^, [\w ]+=/.test(text.slice(i)))) break;
      i++;
    }
    return text.slice(start, i);
  };
  const map = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++; // {
    while (text[i] !== '}') {
      const eq = text.indexOf('=', i);
      const key = text.slice(i, eq).trim();
      i = eq + 1;
      out[key] = value('}');
      if (text[i] === ',') i += 2;
    }
    i++;
    return out;
  };
  const list = (): unknown[] => {
    const out: unknown[] = [];
    i++; // [
    while (text[i] !== ']') {
      out.push(value(',]'));
      if (text[i] === ',') i += 2;
    }
    i++;
    return out;
  };
  return value('');
}

/**
 * Gives string leaves of a Java-map example the JSON type its schema declares (`"3"` -> 3 for an
 * integer, `"false"` -> false for a boolean), so the example reads as the JSON a server would send.
 *
 * @example
 * coerce({ total: '2' }, deref({ $ref: '#/components/schemas/UserPagedList' })); // { total: 2 }
 */
export function coerce(value: unknown, schema: OpenApiSchema | undefined): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) return value.map((item) => coerce(item, schema.items));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const property =
          schema.properties?.[key] ??
          (typeof schema.additionalProperties === 'object'
            ? schema.additionalProperties
            : undefined);
        return [key, coerce(item, property)];
      }),
    );
  }
  if (typeof value !== 'string') return value;
  if (schema.type === 'integer' || schema.type === 'number') {
    return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  if (schema.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

/**
 * A component's example as JSON, or undefined when it has none.
 *
 * @example
 * componentExample('Group'); // { id: '550e...', dynamic: false, ... }
 */
export function componentExample(name: string): unknown {
  const raw = componentSchema(name).example;
  if (raw === undefined) return undefined;
  const json = typeof raw === 'string' ? parseJavaMap(raw) : raw;
  return coerce(json, deref(componentSchema(name)));
}

export interface ResolvedOperation {
  method: string;
  /** The full path as requested: `/v1/users/{userId}`, `/oauth/token`. */
  path: string;
  operation: OpenApiOperation;
  parameters: OpenApiParameter[];
}

function resolveParameter(parameter: OpenApiParameter): OpenApiParameter {
  if (!parameter.$ref) return parameter;
  const name = parameter.$ref.replace('#/components/parameters/', '');
  const resolved = spec.components.parameters[name];
  if (!resolved) throw new Error(`unknown parameter ${parameter.$ref}`);
  return resolved;
}

/** Every operation with its full path (base path of its servers applied). */
export const operations: ResolvedOperation[] = Object.entries(spec.paths).flatMap(([route, item]) =>
  Object.entries(item)
    .filter(([, operation]) => typeof operation === 'object' && 'operationId' in operation)
    .map(([method, operation]) => {
      const base = (operation.servers?.[0]?.url ?? spec.servers?.[0]?.url ?? '').replace(/\/$/, '');
      return {
        method: method.toUpperCase(),
        path: `${base}${route}`,
        operation,
        parameters: (operation.parameters ?? []).map(resolveParameter),
      };
    }),
);

/**
 * The operation a request matches, as a router would pick it: a path whose segments match
 * literally beats one that matches by a `{parameter}` at the first segment where they differ.
 *
 * @example
 * matchOperation('GET', '/v1/elements/customers')?.operation.operationId; // 'getElement'
 */
export function matchOperation(method: string, path: string): ResolvedOperation | undefined {
  const segments = path.split('/');
  const candidates = operations.filter((candidate) => {
    if (candidate.method !== method.toUpperCase()) return false;
    const template = candidate.path.split('/');
    return (
      template.length === segments.length &&
      template.every(
        (part, i) => part.startsWith('{') || part === decodeURIComponent(segments[i] ?? ''),
      )
    );
  });
  const score = (candidate: ResolvedOperation) =>
    candidate.path
      .split('/')
      .map((part) => (part.startsWith('{') ? '0' : '1'))
      .join('');
  return candidates.sort((a, b) => score(b).localeCompare(score(a)))[0];
}
