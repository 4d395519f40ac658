import type { Context } from 'hono';

import type { DefinitionList } from '@wsc/api-client/strict';

import type { AppEnv } from '../../lib/types.ts';
import { allowedAliases } from '../../identity/permissions.ts';
import { toPublicDefinition } from '../../workspace/definitions.ts';

/** `GET /v1/definitions` (extended profile only): only what the caller may see. */
export async function listDefinitions(c: Context<AppEnv>) {
  const aliases = await allowedAliases(c);
  const body: DefinitionList = {
    items: c.var.deps.workspace.definitions
      .filter((d) => aliases.has(d.alias))
      .map((definition) => toPublicDefinition(definition, 'extended')),
  };
  return c.json(body);
}
