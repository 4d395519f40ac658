import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ZOD_JSON_SCHEMA_SHIMS, zodWithoutJsonSchema } from './zod-without-json-schema.ts';

const zodRoot = path.dirname(createRequire(import.meta.url).resolve('zod/package.json'));
const classicSchemas = path.join(zodRoot, 'v4', 'classic', 'schemas.js');
const classicSource = readFileSync(classicSchemas, 'utf8');

/** The names zod's classic schemas read from one of the swapped modules. */
function namesUsedFrom(specifier: string): string[] {
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const namespace = new RegExp(`import \\* as (\\w+) from "${escaped}"`).exec(classicSource);
  if (namespace) {
    const uses = classicSource.matchAll(new RegExp(`(?<![\\w-])${namespace[1]}\\.(\\w+)`, 'g'));
    return [...new Set([...uses].map((m) => m[1] ?? ''))].sort();
  }
  const named = new RegExp(`import \\{([^}]*)\\} from "${escaped}"`).exec(classicSource);
  if (!named) throw new Error(`zod's classic schemas no longer import ${specifier}`);
  return (named[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
}

describe('zod without JSON Schema (ADR 0032)', () => {
  it.each(Object.entries(ZOD_JSON_SCHEMA_SHIMS))(
    'the stand-in for %s exports every name zod reads from it',
    async (specifier, shim) => {
      const used = namesUsedFrom(specifier);
      expect(used.length).toBeGreaterThan(0);
      const exported = Object.keys(await import(pathToFileURL(shim).href));
      expect(used.filter((name) => !exported.includes(name))).toEqual([]);
    },
  );

  it('redirects only the imports of zod classic schemas module', () => {
    const plugin = zodWithoutJsonSchema();
    const resolveId = plugin.resolveId as (source: string, importer?: string) => string | null;
    const [specifier, shim] = Object.entries(ZOD_JSON_SCHEMA_SHIMS)[0] ?? ['', ''];
    expect(specifier).toBe('../core/json-schema-processors.js');
    expect(resolveId(specifier, classicSchemas)).toBe(shim);
    expect(resolveId(specifier, path.join(zodRoot, 'v4', 'core', 'index.js'))).toBeNull();
    expect(resolveId(specifier, undefined)).toBeNull();
    expect(resolveId('./anything.js', classicSchemas)).toBeNull();
  });

  // vitest.config.ts inlines zod through the same plugin: the console's tests run on the zod
  // the console ships, so every schema they parse proves the stand-ins do not get in the way.
  it('the tests run on the zod the console ships: schemas parse, JSON Schema is refused', () => {
    const schema = z.object({ name: z.string().min(1), age: z.number().int().optional() });
    expect(schema.parse({ name: 'Ada', age: 36 })).toEqual({ name: 'Ada', age: 36 });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(() => schema.toJSONSchema()).toThrow(/left out of the console build: ADR 0032/);
    expect(() => z.string().min(3).minLength).toThrow(/ADR 0032/);
  });
});
