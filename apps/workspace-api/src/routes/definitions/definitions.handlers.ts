import type { Context } from 'hono';

import type { DefinitionList } from '@wsc/api-client';

import type { AppEnv } from '../../lib/types.ts';
import { allowedAliases } from '../../lib/permissions.ts';
import { toPublicDefinition } from '../../workspace/definitions.ts';

/** `GET /v1/definitions`: only what the caller may see. */
export async function listDefinitions(c: Context<AppEnv>) {
  const aliases = await allowedAliases(c);
  const body: DefinitionList = {
    items: c.var.deps.workspace.definitions
      .filter((d) => aliases.has(d.alias))
      .map(toPublicDefinition),
  };
  return c.json(body);
}
