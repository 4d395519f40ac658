// Bearer authentication: the token is hashed and looked up; expiry, revocation, credential and
// user status are all checked in the one query, whose answer for a valid token is remembered until
// anything about users, credentials or tokens changes (identity/token-cache.ts).
import { createMiddleware } from 'hono/factory';

import type { Db } from '../db/client.ts';
import type { AppEnv, Principal } from './types.ts';
import { sha256Hex } from './crypto.ts';
import { unauthorized } from './errors.ts';

/**
 * The principal for a raw bearer token, or a reason it is not valid.
 *
 * @example
 * const result = await authenticateToken(db, token);
 */
export function authenticateToken(
  db: Db,
  token: string,
): Promise<{ principal: Principal; expiresAt: number } | { reason: string }> {
  return authenticateTokenHash(db, sha256Hex(token));
}

/** {@link authenticateToken} for a token already hashed (the cache's key is the same hash). */
async function authenticateTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ principal: Principal; expiresAt: number } | { reason: string }> {
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .innerJoin('credentials', 'credentials.client_id', 'tokens.client_id')
    .select([
      'tokens.expires_at',
      'tokens.revoked',
      'tokens.client_id',
      'credentials.revoked_at',
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.job_title',
      'users.status',
      'users.role',
    ])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return { reason: 'The access token is not valid' };
  if (row.revoked || row.revoked_at !== null) return { reason: 'The access token was revoked' };
  if (row.expires_at.getTime() <= Date.now()) return { reason: 'The access token expired' };
  if (row.status !== 'ACTIVE') return { reason: 'The user is not active' };
  return {
    expiresAt: row.expires_at.getTime(),
    principal: {
      userId: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      jobTitle: row.job_title,
      status: row.status,
      role: row.role,
      clientId: row.client_id,
    },
  };
}

/**
 * Requires `Authorization: Bearer <token>`; sets `c.var.principal`. 401 with WWW-Authenticate.
 *
 * @example
 * v1.use('*', requireAuth);
 * v1.get('/me', (c) => c.json(c.var.principal));
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('Authorization');
  const match = header ? /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header) : null;
  if (!match?.[1]) {
    throw unauthorized(
      header ? 'Malformed Authorization header' : 'An access token is required',
      header !== undefined,
    );
  }
  const { db, tokenCache } = c.var.deps;
  const hash = sha256Hex(match[1]);
  const cached = tokenCache.get(hash);
  if (cached) {
    c.set('principal', cached);
  } else {
    const generation = tokenCache.generation;
    const result = await authenticateTokenHash(db, hash);
    if ('reason' in result) throw unauthorized(result.reason);
    tokenCache.remember(hash, result.principal, result.expiresAt, generation);
    c.set('principal', result.principal);
  }
  await next();
});
