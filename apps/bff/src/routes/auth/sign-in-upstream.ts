// The upstream calls of a sign-in, as few round trips after one another as their dependencies
// allow (DESIGN.md section 7): the connections are warmed while the token request travels;
// everything else needs the token, then the profile probe (which is `GET /v1/me` itself, so its
// answer is the person in the extended profile) and a hosted person's look-up go out together,
// beside the reads the console needs first (definitions, the first page: first-reads.ts).
import type { Profile, SessionUser } from '@wsc/api-client';

import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ProfileDetector } from '../../lib/profiles.ts';
import type { Region } from '../../lib/region.ts';
import type { TokenStyles } from '../../lib/upstream-auth.ts';
import { hostedUser, lookUpUser, ownerIdFor, userFromMe } from '../../lib/identities.ts';
import { fetchMe, fetchToken, tokenRefreshTime } from '../../lib/upstream-auth.ts';

export type SignInDeps = {
  config: BffConfig;
  clock: Clock;
  fetch: typeof fetch;
  logger: Logger;
  profiles: ProfileDetector;
  tokenStyles: TokenStyles;
  /** Opens the region's pooled connections ahead of need (lib/upstream-pool.ts). */
  warm?: (region: Region) => void;
};

export type SignInInput = {
  region: Region;
  clientId: string;
  clientSecret: string;
  /** Typed at sign-in; unverified. */
  email: string | undefined;
  requestId: string;
};

/** What the upstream said about a sign-in: the token, the profile and who it is. */
export type SignedIn = {
  accessToken: string;
  tokenRefreshAt: number;
  profile: Profile;
  user: SessionUser;
  ownerId: string;
};

type Person = Pick<SignedIn, 'profile' | 'user' | 'ownerId'>;

/**
 * The person behind a fresh token. A region whose profile is still to be detected probes it and,
 * beside the probe, looks up the hosted person (used only if the probe says hosted; the look-up
 * swallows its own failures).
 */
async function identify(deps: SignInDeps, input: SignInInput, token: string): Promise<Person> {
  const { config, profiles, logger } = deps;
  const { region, clientId } = input;
  const hosted = async (): Promise<Person> => ({
    profile: 'hosted',
    user: await hostedUser({
      identities: config.identities,
      region,
      clientId,
      email: input.email,
      lookUp: (email) =>
        lookUpUser(
          { fetch: deps.fetch, region, token, timeoutMs: config.upstreamTimeoutMs },
          email,
        ),
      logger,
      requestId: input.requestId,
    }),
    // Proven by the token exchange; an email (typed or looked up) is not.
    ownerId: ownerIdFor(region.id, clientId),
  });
  const known = profiles.known(region);
  if (known === 'hosted') return hosted();
  const beside = known === undefined ? hosted() : undefined;
  // Not awaited when the probe says extended, or when the probe fails: never unhandled.
  beside?.catch(() => undefined);
  const resolved = await profiles.resolve(region, token);
  if (resolved.profile === 'hosted') return beside ?? hosted();
  const me = resolved.me ?? (await fetchMe(deps.fetch, region, token, config.upstreamTimeoutMs));
  // The API's user id, as before hosted sessions existed: existing saved views stay.
  return { profile: 'extended', user: userFromMe(me, clientId), ownerId: me.id };
}

/**
 * Reads that need only the token and the profile, started beside the identity when the region's
 * profile is already known, else once the identity has told it. They never reject, and settle
 * soon after `signal` aborts, with what they had.
 */
export type Alongside<T> = (token: string, profile: Profile, signal: AbortSignal) => Promise<T>;

/**
 * `reads`, given `ms` more: then they are aborted, and answer what they had (a read that aborts
 * is left out): a slow read is the console's to make, not a reason to hold the sign-in.
 */
async function within<T>(reads: Promise<T>, ms: number, controller: AbortController): Promise<T> {
  const timer = setTimeout(() => controller.abort(), ms);
  timer.unref?.();
  try {
    return await reads;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The token, profile and person of a sign-in, and what `alongside` read with the token. Throws
 * what fetchToken, the profile probe and fetchMe throw (CredentialsRejectedError,
 * UpstreamUnavailableError) for the route to answer.
 *
 * @example
 * const signedIn = await signInUpstream(deps, { region, clientId, clientSecret, email, requestId });
 */
export async function signInUpstream<T = never>(
  deps: SignInDeps,
  input: SignInInput,
  alongside?: Alongside<T>,
): Promise<SignedIn & { alongside?: T }> {
  const { config } = deps;
  // Before the token request: its round trip covers the handshakes of the connections the
  // first screen's parallel reads will use.
  deps.warm?.(input.region);
  const issuedAt = deps.clock.now();
  const token = await fetchToken({
    fetch: deps.fetch,
    region: input.region,
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    timeoutMs: config.upstreamTimeoutMs,
    styles: deps.tokenStyles,
  });
  const controller = new AbortController();
  const known = deps.profiles.known(input.region);
  const early =
    alongside && known ? alongside(token.access_token, known, controller.signal) : undefined;
  let person: Person;
  try {
    person = await identify(deps, input, token.access_token);
  } catch (error) {
    controller.abort();
    throw error;
  }
  const reads =
    early && person.profile === known
      ? early
      : alongside?.(token.access_token, person.profile, controller.signal);
  return {
    accessToken: token.access_token,
    tokenRefreshAt: tokenRefreshTime(issuedAt, token.expires_in, config.tokenRefreshRatio),
    ...person,
    ...(reads ? { alongside: await within(reads, config.signInReadsGraceMs, controller) } : {}),
  };
}
