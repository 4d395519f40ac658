// The record definitions a session can see, as `GET /bff/definitions` answers them: the upstream's
// `/v1/definitions` in the extended profile, the region's workspace description in the hosted one.
// Saved views check their recordType and alias against the same list.
import type { Definition } from '@wsc/api-client';

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
export async function sessionDefinitions(
  deps: { workspace: WorkspaceStore; api: SessionApi },
  session: SessionRecord,
  region: Region,
  signal?: AbortSignal,
): Promise<Definition[]> {
  if (session.profile === 'hosted') return hostedDefinitions(deps.workspace, region);
  const list = await deps.api.run(
    session,
    region,
    'extended',
    (client, callSignal) => client.listDefinitions({ signal: callSignal }),
    signal,
  );
  return withHandleFields(list.items);
}

/**
 * The upstream's definitions with a handle field each: our API names `id` as the handle field;
 * an older one may not say so.
 *
 * @example
 * withHandleFields([{ ...definition, handleField: undefined }])[0].handleField; // 'id'
 */
export function withHandleFields(items: Definition[]): Definition[] {
  return items.map((d) => (d.handleField ? d : { ...d, handleField: 'id' }));
}
