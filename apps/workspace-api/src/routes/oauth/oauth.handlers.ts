// The client-credentials token endpoint (RFC 6749 section 4.4). Errors follow section 5.2, not
// problem+json, because OAuth clients parse `error`.
import type { Context } from 'hono';

import type { TokenError } from '@wsc/api-client';
import type { TokenResponse } from '@wsc/api-client/strict';

import type { ProblemException } from '../../lib/errors.ts';
import type { AppDeps, AppEnv } from '../../lib/types.ts';
import { issueToken } from '../../identity/credentials.ts';
import {
  bodyTooLarge,
  declaresMoreThan,
  readBodyText,
  TOKEN_BODY_MAX_BYTES,
} from '../../lib/body.ts';
import { DUMMY_SECRET_HASH } from '../../lib/crypto.ts';
import { serviceUnavailable, tooManyRequests } from '../../lib/errors.ts';
import { addressKey, peerAddress } from '../../lib/peer.ts';
import { badTextIndex } from '../../lib/text.ts';
import { SecretCheckBusy } from '../../oauth/secret-check.ts';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function tokenError(status: 400 | 401, error: TokenError['error'], description: string): Response {
  const body: TokenError = { error, error_description: description };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json',
      ...NO_STORE,
      ...(status === 401
        ? { 'WWW-Authenticate': 'Basic realm="workspace-api", charset="UTF-8"' }
        : {}),
    },
  });
}

async function readFields(c: Context<AppEnv>): Promise<Record<string, unknown> | Response> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(await readBodyText(c, TOKEN_BODY_MAX_BYTES));
    const fields: Record<string, string> = {};
    for (const [key, value] of params) {
      // RFC 6749 section 3.2: parameters must not repeat.
      if (key in fields) return tokenError(400, 'invalid_request', `Parameter ${key} is repeated`);
      fields[key] = value;
    }
    return fields;
  }
  if (type === 'application/json') {
    const text = await readBodyText(c, TOKEN_BODY_MAX_BYTES);
    try {
      const body: unknown = JSON.parse(text);
      if (typeof body === 'object' && body !== null && !Array.isArray(body))
        return body as Record<string, unknown>;
    } catch {
      // fall through to the error below
    }
    return tokenError(400, 'invalid_request', 'The body is not a JSON object');
  }
  if (type === '' && (c.req.header('Content-Length') ?? '0') === '0') return {};
  return tokenError(
    400,
    'invalid_request',
    'Use application/x-www-form-urlencoded or application/json',
  );
}

function basicCredentials(
  header: string | undefined,
): { id: string; secret: string } | null | 'malformed' {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    // RFC 6749 section 2.3.1: both parts are form-urlencoded before base64.
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
    };
  } catch {
    return 'malformed';
  }
}

/**
 * The hosted profile's one way in, as published: a JSON body with all three fields, no HTTP Basic
 * (the service's own documentation shows form + Basic, its OpenAPI this; clients try both).
 */
async function readPublishedFields(
  c: Context<AppEnv>,
): Promise<Record<string, unknown> | Response> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json') {
    return tokenError(
      400,
      'invalid_request',
      'Send a JSON body {grant_type, client_id, client_secret}',
    );
  }
  if (c.req.header('Authorization') !== undefined) {
    return tokenError(
      400,
      'invalid_request',
      'Send client_id and client_secret in the JSON body, not as HTTP Basic',
    );
  }
  return readFields(c);
}

/** What charging one attempt took, and how to give it back or refuse the attempt. */
type FailureCharge = {
  /** The attempt came when a failure bucket was already empty. */
  overLimit: boolean;
  /** Gives back what was taken (a correct secret, or a check that could not run). Idempotent. */
  refund: () => void;
  refusal: () => ProblemException;
};

/**
 * Charges one failed attempt to the (client id, address) and address buckets BEFORE any work, so
 * that concurrent attempts cannot all pass a check made before and charged after. A correct
 * secret is refunded. The address bucket is charged first; an address that is over its limit
 * creates no (client id, address) key, so one source cannot fill that map.
 */
function chargeFailure(deps: AppDeps, clientId: string, address: string): FailureCharge {
  const byAddress = deps.limiters.tokenFailuresByAddress;
  const byPair = deps.limiters.tokenFailures;
  const pairKey = `${clientId}\u0000${address}`;
  const addressResult = byAddress.take(address);
  const pairResult = addressResult.allowed ? byPair.take(pairKey) : undefined;
  const refused = !addressResult.allowed
    ? { limiter: byAddress, result: addressResult }
    : pairResult && !pairResult.allowed
      ? { limiter: byPair, result: pairResult }
      : undefined;
  let refunded = false;
  return {
    overLimit: refused !== undefined,
    refund: () => {
      if (refunded) return;
      refunded = true;
      if (addressResult.allowed) byAddress.refund(address);
      if (pairResult?.allowed) byPair.refund(pairKey);
    },
    refusal: () =>
      refused
        ? tooManyRequests(
            refused.result.retryAfter,
            refused.limiter.headers('failed-token', refused.result),
          )
        : tooManyRequests(1),
  };
}

/**
 * `POST /oauth/token`. Extended: form or JSON, HTTP Basic or body credentials, 200. Hosted: JSON
 * body only, 201 (as published), and the reply repeats `grant_type`, which the published
 * AccessTokenResponse lists as required.
 *
 * The secret check (see oauth/secret-check.ts and docs/security.md):
 * - the body is at most 16 KiB, refused from its declared length before anything else;
 * - a failed attempt is charged before the check, per (client id, source address) and per source
 *   address; a correct secret is refunded, so it never pays for anyone's failures;
 * - scrypt runs in a bounded queue (503 at once when full). An attempt over its failure limit is
 *   still checked, but only on an idle slot and never queued: a wrong secret then gets 429, a
 *   correct one its token. So someone else's failures never lock a correct secret out, and
 *   attempts over the limit use only capacity nobody else wants;
 * - a (client id, secret) verified within SECRET_CACHE_TTL_SECONDS skips scrypt; the credential
 *   row (revocation, user status) is read on every request all the same.
 */
export async function postToken(c: Context<AppEnv>): Promise<Response> {
  const { deps } = c.var;
  const hosted = deps.config.profile === 'hosted';
  if (declaresMoreThan(c.req.raw, TOKEN_BODY_MAX_BYTES)) throw bodyTooLarge(TOKEN_BODY_MAX_BYTES);
  const fields = await (hosted ? readPublishedFields(c) : readFields(c));
  if (fields instanceof Response) return fields;
  const basic = basicCredentials(c.req.header('Authorization'));
  if (basic === 'malformed')
    return tokenError(401, 'invalid_client', 'Malformed Basic credentials');

  const grantType = fields.grant_type;
  if (grantType === undefined || grantType === '')
    return tokenError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') {
    return tokenError(400, 'unsupported_grant_type', 'Only client_credentials is supported');
  }
  const formId = fields.client_id;
  const formSecret = fields.client_secret;
  if (
    (formId !== undefined && typeof formId !== 'string') ||
    (formSecret !== undefined && typeof formSecret !== 'string')
  ) {
    return tokenError(400, 'invalid_request', 'client_id and client_secret must be strings');
  }
  if (basic && (formId !== undefined || formSecret !== undefined)) {
    return tokenError(400, 'invalid_request', 'Use one client authentication method, not both');
  }
  const clientId = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (!clientId || !secret)
    return tokenError(401, 'invalid_client', 'Client authentication is required');
  // A NUL would fail in PostgreSQL (500): say which parameter holds it instead.
  for (const [name, value] of [
    ['client_id', clientId],
    ['client_secret', secret],
  ] as const) {
    const index = badTextIndex(value);
    if (index >= 0)
      return tokenError(
        400,
        'invalid_request',
        `${name} contains a character that cannot be stored (at position ${index})`,
      );
  }
  if (clientId.length > 200 || secret.length > 500)
    return tokenError(401, 'invalid_client', 'Client authentication failed');

  const charge = chargeFailure(deps, clientId, addressKey(peerAddress(c)));
  const credential = await deps.db
    .selectFrom('credentials')
    .innerJoin('users', 'users.id', 'credentials.user_id')
    .select([
      'credentials.client_id',
      'credentials.secret_hash',
      'credentials.revoked_at',
      'users.id as user_id',
      'users.status',
    ])
    .where('credentials.client_id', '=', clientId)
    .executeTakeFirst();
  // Verify against a dummy hash for unknown clients so timing does not reveal which ids exist.
  const stored = credential?.secret_hash ?? DUMMY_SECRET_HASH;
  let secretOk: boolean;
  if (credential && deps.secrets.recentlyVerified(clientId, secret, stored)) secretOk = true;
  else {
    try {
      secretOk = await deps.secrets.verify(
        clientId,
        secret,
        stored,
        charge.overLimit ? 'spare' : 'queue',
      );
    } catch (error) {
      if (!(error instanceof SecretCheckBusy)) throw error;
      // Nothing was checked: the attempt costs no failure budget.
      charge.refund();
      if (charge.overLimit) throw charge.refusal();
      throw serviceUnavailable(1, 'Too many client authentications are in progress; retry shortly');
    }
  }
  if (credential && secretOk) charge.refund();
  if (
    !credential ||
    !secretOk ||
    credential.revoked_at !== null ||
    credential.status !== 'ACTIVE'
  ) {
    if (charge.overLimit && !secretOk) throw charge.refusal();
    return tokenError(401, 'invalid_client', 'Client authentication failed');
  }

  const ttl = deps.config.tokenTtlSeconds;
  const accessToken = await issueToken(deps.db, credential.client_id, credential.user_id, ttl);
  // The cheap trigger of the token purge: at most once per interval, not awaited.
  void deps.tokenPurger.maybePurge();
  const body: TokenResponse = { access_token: accessToken, token_type: 'Bearer', expires_in: ttl };
  if (hosted) return c.json({ ...body, grant_type: 'client_credentials' }, 201, NO_STORE);
  return c.json(body, 200, NO_STORE);
}
