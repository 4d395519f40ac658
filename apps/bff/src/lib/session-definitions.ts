// The record definitions a session can see, as `GET /bff/definitions` answers them: the upstream's
// `/v1/definitions` in the extended profile, the region's workspace description in the hosted one.
// Saved views check their recordType and alias against the same list.
import type { Definition, Profile } from '@wsc/api-client';

import type { SessionRecord } from '../db/store.ts';
import type { Region } from './region.ts';
import type { SessionApi } from './session-api.ts';
import type { WorkspaceStore } from './workspace-store.ts';
import { hostedDefinitions } from './workspace-store.ts';

/**
 * The session's definitions. Throws what {@link SessionApi.run} throws (ApiError, revoked
 * credentials, an unreachable API); turn those into an answer with `api.failure`.
 *
 * @example
 * const items = await sessionDefinitions({ workspace, api }, session, region, c.req.raw.signal);
 */
export function sessionDefinitions(
  deps: { workspace: WorkspaceStore; api: SessionApi },
  session: SessionRecord,
  region: Region,
  signal?: AbortSignal,
): Promise<Definition[]> {
  return definitionsFor(session.profile, deps.workspace, region, () =>
    deps.api.run(
      session,
      region,
      'extended',
      (client, callSignal) => client.listDefinitions({ signal: callSignal }),
      signal,
    ),
  );
}

/**
 * The definitions a session of `profile` sees: the region's workspace description (hosted), or
 * what `list` reads of the upstream's `/v1/definitions` (extended), each with a handle field: our
 * API names `id` as the handle field; an older one may not say so. The sessions' reads
 * ({@link sessionDefinitions}) and the sign-in's (first-reads.ts) differ only in how they ask.
 *
 * @example
 * const items = await definitionsFor('extended', workspace, region, () => client.listDefinitions());
 */
export async function definitionsFor(
  profile: Profile,
  workspace: WorkspaceStore,
  region: Region,
  list: () => Promise<{ items: Definition[] }>,
): Promise<Definition[]> {
  if (profile === 'hosted') return hostedDefinitions(workspace, region);
  const { items } = await list();
  return items.map((d) => (d.handleField ? d : { ...d, handleField: 'id' }));
}
