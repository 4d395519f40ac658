// Credentials (extension): an administrator revokes one client credential, for example a leaked
// secret, without deactivating its user (whose other credentials keep working).
import type { Context } from 'hono';

import type { Credential } from '@wsc/api-client/strict';

import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './credentials.routes.ts';
import { revokeCredential } from '../../identity/credentials.ts';
import { requireAdmin } from '../../identity/permissions.ts';
import { notFound } from '../../lib/errors.ts';

/** Client ids are `wsc_` plus base64url; anything else cannot exist and is a 404 without a query. */
const CLIENT_ID_RE = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * `POST /v1/credentials/{clientId}/revoke` (ADMIN, idempotent) -> 200 Credential. The credential
 * and its tokens are revoked in one transaction: its tokens get 401 from the next request on, and
 * the token endpoint refuses it (the remembered success of oauth/secret-check.ts is dropped too,
 * though the token route's own row check would already refuse it).
 */
export async function revoke(c: Context<AppEnv>, request: RouteInput<typeof routes.revoke>) {
  requireAdmin(c, 'Only administrators may revoke credentials');
  const { clientId } = request.params();
  const row = CLIENT_ID_RE.test(clientId)
    ? await revokeCredential(c.var.deps.db, clientId)
    : undefined;
  if (!row) throw notFound(`No credential ${clientId}`);
  c.var.deps.secrets.forget(clientId);
  // At once, not when the database's notification arrives: the caller's next request may be first.
  c.var.deps.tokenCache.invalidate();
  const body: Credential = {
    clientId: row.client_id,
    userId: row.user_id,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
  return c.json(body);
}
