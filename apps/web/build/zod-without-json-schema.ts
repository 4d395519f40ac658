import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** Zod's classic schemas module: the one importer whose JSON Schema imports are swapped. */
const CLASSIC_SCHEMAS = /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;

const shims = path.join(path.dirname(fileURLToPath(import.meta.url)), 'zod-shims');

/** The JSON Schema modules zod's classic schemas import, and what the console gets instead. */
export const ZOD_JSON_SCHEMA_SHIMS: Readonly<Record<string, string>> = {
  '../core/json-schema-processors.js': path.join(shims, 'json-schema-processors.js'),
  '../core/to-json-schema.js': path.join(shims, 'to-json-schema.js'),
};

/**
 * Leaves zod's JSON Schema generator out of the console (ADR 0032). Every classic zod schema
 * carries a `toJSONSchema()` method, so the generator (about 5 KB gzip) rides along with the
 * first schema the sign-in parses, though the console never turns a schema into JSON Schema.
 * Only imports made by zod's `classic/schemas.js` are redirected; the shims throw a clear
 * error if anything ever asks them for JSON Schema.
 */
export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'wsc:zod-without-json-schema',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer === undefined || !CLASSIC_SCHEMAS.test(importer)) return null;
      return ZOD_JSON_SCHEMA_SHIMS[source] ?? null;
    },
  };
}
