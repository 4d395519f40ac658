// `GET /v1/elements/{alias}` in the hosted profile: the published getElement, which describes the
// element definition as an Aspect; it does not list records (the extended profile's record search
// at the same path does). Element records stay readable one by one at `/v1/elements/{alias}/{id}`.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';

import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './elements.routes.ts';
import { resolveDefinition } from '../../identity/permissions.ts';

/** The published Aspect, as far as a definition of ours fills it. */
export type PublishedAspect = {
  id: string;
  name: string;
  handle: string;
  namespace: string;
  __typename: 'AspectElement';
  status: 'ACTIVE';
  configured: boolean;
  readOnly: boolean;
};

/** Namespace of the element ids (RFC 9562 name-based ids need one; any fixed UUID serves). */
const ELEMENT_NAMESPACE = '4c8a2f1e-9d3b-5e7a-8f60-2b1d4c6e8a90';

/**
 * A stable UUID (version 5, RFC 9562) for a name: the same alias always gets the same id, in
 * every region and after every restart, without storing one.
 *
 * @example
 * uuidV5('customers'); // always the same uuid
 */
export function uuidV5(name: string, namespace = ELEMENT_NAMESPACE): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `GET /v1/elements/{alias}` (hosted): 404 for an unknown alias, 403 when it is closed to the caller. */
export async function getElement(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.getElement>,
) {
  const definition = await resolveDefinition(c, 'elements', request.params().alias);
  const aspect: PublishedAspect = {
    id: uuidV5(definition.alias),
    name: definition.name,
    handle: definition.handle,
    namespace: definition.alias,
    __typename: 'AspectElement',
    status: 'ACTIVE',
    configured: true,
    readOnly: false,
  };
  return c.json(aspect);
}
