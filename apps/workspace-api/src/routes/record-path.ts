// The path of a record and of its definition, shared by the record routes and their
// sub-resources: `/v1/{recordType}/{alias}/{id}`. `recordType` is an enum, so its routes only
// match those four words (lib/route.ts) and other top-level paths never reach them.
import type { Context } from 'hono';
import { z } from 'zod';

import { RecordTypeSchema } from '@wsc/api-client';

import type { AppEnv } from '../lib/types.ts';
import { resolveRecord } from '../identity/permissions.ts';

export const definitionPath = z.object({ recordType: RecordTypeSchema, alias: z.string() });
export const recordPath = definitionPath.extend({ id: z.string() });

/**
 * The record a path names, if the caller may see it (404/403 otherwise, see resolveRecord).
 *
 * @example
 * const { record } = await recordAt(c, input.params());
 */
export function recordAt(c: Context<AppEnv>, path: z.output<typeof recordPath>) {
  return resolveRecord(c, path.recordType, path.alias, path.id);
}
