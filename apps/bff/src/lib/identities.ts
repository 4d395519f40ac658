// Who signed in, when the upstream cannot say. The hosted API's token reply names nobody and it has
// no `/v1/me`; what the client id proves is only the client id. So a session's owner (the key of
// its saved views) is derived from (region, client id), and a name and role come from the
// operator's identities file, or from an email the person typed (shown as unverified and never
// used to decide anything).
import { createHash } from 'node:crypto';
import { z } from 'zod';

import type { Me, SessionUser, User } from '@wsc/api-client';
import { createApiClient } from '@wsc/api-client';
import { eq, serialize } from '@wsc/rsql';

import type { Logger } from './logger.ts';
import type { Region, RegionId } from './region.ts';
import { ConfigFileError, readJsonFile } from './config-file.ts';

/** One operator-assigned identity: this client id, in this region (or any), is this person. */
export type Identity = {
  clientId: string;
  email: string;
  role: 'ADMIN' | 'MEMBER';
  region?: RegionId;
};

/**
 * `BFF_IDENTITIES_FILE`: `{"identities": [{"clientId", "email", "role", "region"?}]}`. Strict, so
 * a misspelt key (`"rol"`) stops the BFF rather than silently demoting someone.
 */
const IdentitiesFileSchema = z.strictObject({
  identities: z.array(
    z.strictObject({
      clientId: z.string().trim().min(1, 'Required').max(256),
      email: z.email().max(254),
      role: z.enum(['ADMIN', 'MEMBER']),
      region: z.enum(['default', 'eu']).optional(),
    }),
  ),
});

/**
 * Read and check the identities file; throws {@link ConfigFileError} naming every problem.
 *
 * @example
 * const identities = readIdentitiesFile('BFF_IDENTITIES_FILE', '/etc/bff/identities.json');
 */
export function readIdentitiesFile(variable: string, file: string): Identity[] {
  const { identities } = readJsonFile(variable, file, IdentitiesFileSchema);
  const problems: string[] = [];
  const seen = new Set<string>();
  identities.forEach((identity, index) => {
    // One answer per (region, client id): two entries would make the role depend on file order.
    const key = `${identity.region ?? '*'}\u0000${identity.clientId}`;
    if (seen.has(key)) {
      problems.push(
        `identities.${index}: a second entry for this clientId${identity.region ? ` in region ${identity.region}` : ' without a region'}`,
      );
    }
    seen.add(key);
  });
  if (problems.length > 0) throw new ConfigFileError(variable, file, problems);
  return identities;
}

/**
 * The identity for a client id in a region: an entry naming the region wins over one without.
 *
 * @example
 * findIdentity(identities, 'eu', 'client-1')?.role; // 'ADMIN'
 */
export function findIdentity(
  identities: readonly Identity[],
  region: RegionId,
  clientId: string,
): Identity | undefined {
  return (
    identities.find((i) => i.clientId === clientId && i.region === region) ??
    identities.find((i) => i.clientId === clientId && i.region === undefined)
  );
}

/** Namespace of the BFF's owner ids (UUID v5); changing it would orphan every saved view. */
const OWNER_NAMESPACE = 'f6424e56-6dbe-4890-8e07-227e676182a6';

/**
 * RFC 9562 UUID version 5 (SHA-1, name-based) of `name` in `namespace`.
 *
 * @example
 * uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'); // '2ed6657d-e927-568b-95e1-2665a8aea6a2'
 */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  hash.writeUInt8((hash.readUInt8(6) & 0x0f) | 0x50, 6);
  hash.writeUInt8((hash.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The owner id of a hosted session: stable for a client id in a region, because the token exchange
 * proves the client id and nothing else. Saved views are keyed by it.
 *
 * @example
 * ownerIdFor('default', 'client-1') === ownerIdFor('default', 'client-1'); // true
 */
export function ownerIdFor(region: RegionId, clientId: string): string {
  return uuidV5(`${region}:${clientId}`, OWNER_NAMESPACE);
}

/**
 * The session user of the extended profile: `/v1/me`, verified by the upstream.
 *
 * @example
 * const user = userFromMe(me, 'client-1'); // identity 'api'
 */
export function userFromMe(me: Me, clientId: string): SessionUser {
  return {
    id: me.id,
    email: me.email,
    firstName: me.firstName,
    lastName: me.lastName,
    clientId,
    role: me.role,
    identity: 'api',
  };
}

/**
 * `GET /v1/users?filter=email==...&first=1` with the session's token, inside the published
 * contract. Resolves the user whose email matches (case-insensitively), or undefined; a server
 * that ignored the filter cannot hand us somebody else.
 *
 * @example
 * const user = await lookUpUser({ fetch, region, token, timeoutMs: 30_000 }, 'ada@example.com');
 */
export async function lookUpUser(
  deps: { fetch: typeof fetch; region: Region; token: string; timeoutMs: number },
  email: string,
): Promise<User | undefined> {
  const client = createApiClient({
    baseUrl: deps.region.apiUrl,
    profile: 'hosted',
    fetch: deps.fetch,
    getToken: async () => deps.token,
    // Sign-in is waiting; a name is not worth retries.
    retry: false,
  });
  const page = await client.listUsers({
    filter: serialize(eq('email', email)),
    first: 1,
    signal: AbortSignal.timeout(deps.timeoutMs),
  });
  const wanted = email.toLowerCase();
  return page.items.find((user) => user.email.toLowerCase() === wanted);
}

/**
 * The session user of the hosted profile: an operator identity (email and role from the identities
 * file), else a typed email (`self`, role UNKNOWN; only where no identities file is configured),
 * else only the client id (`none`). With an email, the person's names and user id are looked up; a
 * failed or empty lookup changes nothing else. The looked-up names are the session's own to see:
 * what others see of a `self` session is the typed email, marked (lib/people.ts).
 *
 * @example
 * const user = await hostedUser({ identities, region, clientId, email: undefined, lookUp, logger });
 */
export async function hostedUser(input: {
  identities: readonly Identity[] | null;
  region: Region;
  clientId: string;
  /** Typed at sign-in; unverified. */
  email: string | undefined;
  lookUp: (email: string) => Promise<User | undefined>;
  logger: Logger;
  requestId?: string;
}): Promise<SessionUser> {
  const operator = input.identities
    ? findIdentity(input.identities, input.region.id, input.clientId)
    : undefined;
  // With an identities file the operator names whoever may be named: a client it leaves out is
  // nobody in particular, whatever email it types (the form does not ask; a script could send one).
  const typed = input.identities ? undefined : input.email;
  const base: SessionUser = operator
    ? { clientId: input.clientId, email: operator.email, role: operator.role, identity: 'operator' }
    : typed
      ? { clientId: input.clientId, email: typed, role: 'UNKNOWN', identity: 'self' }
      : { clientId: input.clientId, role: 'UNKNOWN', identity: 'none' };
  if (!base.email) return base;
  try {
    const found = await input.lookUp(base.email);
    if (!found) {
      input.logger.debug('sign-in user lookup found nobody', {
        requestId: input.requestId,
        region: input.region.id,
        identity: base.identity,
      });
      return base;
    }
    return {
      ...base,
      id: found.id,
      ...(found.firstName ? { firstName: found.firstName } : {}),
      ...(found.lastName ? { lastName: found.lastName } : {}),
    };
  } catch (error) {
    input.logger.debug('sign-in user lookup failed', {
      requestId: input.requestId,
      region: input.region.id,
      reason: error instanceof Error ? error.message : String(error),
    });
    return base;
  }
}
