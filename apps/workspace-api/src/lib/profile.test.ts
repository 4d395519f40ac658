// The hosted profile's query-parameter allowlist is the published document's, operation by
// operation: read from the repo's copy of the OpenAPI, so a drift on either side fails here.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

import { OPENAPI_PATH } from '@wsc/api-client/testing/prism';

import { PUBLISHED_QUERY_PARAMETERS } from './profile.ts';

type Parameter = { $ref?: string; name?: string; in?: string };
type Document = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
  components: { parameters: Record<string, Parameter> };
};

function declaredQueryParameters(): Map<string, string[]> {
  const document = JSON.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Document;
  const resolve = (parameter: Parameter) =>
    parameter.$ref
      ? document.components.parameters[parameter.$ref.split('/').at(-1) ?? '']
      : parameter;
  const byOperation = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!operation.operationId) continue;
      const names = (operation.parameters ?? [])
        .map(resolve)
        .filter((parameter) => parameter?.in === 'query')
        .map((parameter) => parameter?.name ?? '');
      byOperation.set(operation.operationId, names);
    }
  }
  return byOperation;
}

describe('PUBLISHED_QUERY_PARAMETERS', () => {
  it('lists, for every operation we implement, exactly the query parameters the document declares', () => {
    const declared = declaredQueryParameters();
    for (const [operation, names] of Object.entries(PUBLISHED_QUERY_PARAMETERS)) {
      expect(declared.has(operation), operation).toBe(true);
      expect([...names].sort(), operation).toEqual([...(declared.get(operation) ?? [])].sort());
    }
  });
});
