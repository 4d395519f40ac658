// Which profile a region's upstream speaks: as the operator configured it, or (`auto`) detected once
// per region with the first token a sign-in obtains, by asking for `GET /v1/me`. Our workspace API
// answers it; the hosted service, whose published contract has no such operation, does not.
import type { Me, Profile } from '@wsc/api-client';
import { MeSchema } from '@wsc/api-client';

import type { Logger } from './logger.ts';
import type { Region, RegionId } from './region.ts';
import { UpstreamUnavailableError } from './upstream-auth.ts';

export type ProfileDetector = {
  /** The region's profile when configured or already detected; undefined while `auto` waits. */
  known(region: Region): Profile | undefined;
  /**
   * The region's profile, detecting it with `accessToken` when needed. `me` is the `/v1/me` reply
   * of that token when this call's probe read one (no second request for the same person).
   * Throws UpstreamUnavailableError when the probe could not decide; nothing is cached then.
   */
  resolve(region: Region, accessToken: string): Promise<{ profile: Profile; me?: Me }>;
};

type Probe = { profile: Profile; me?: Me };

/**
 * The per-process detector. One probe per region at a time; concurrent sign-ins wait for it.
 *
 * @example
 * const profiles = createProfileDetector({ fetch, timeoutMs: 30_000, logger });
 * const { profile, me } = await profiles.resolve(region, token.access_token);
 */
export function createProfileDetector(deps: {
  fetch: typeof fetch;
  timeoutMs: number;
  logger: Logger;
}): ProfileDetector {
  const detected = new Map<RegionId, Profile>();
  const probing = new Map<RegionId, Promise<Probe>>();

  const probe = async (region: Region, accessToken: string): Promise<Probe> => {
    let response: Response;
    try {
      response = await deps.fetch(`${region.apiUrl}/me`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
    } catch (error) {
      const timeout = error instanceof Error && error.name === 'TimeoutError';
      throw new UpstreamUnavailableError(
        'profile detection failed',
        timeout ? 'timeout' : 'unreachable',
      );
    }
    const status = response.status;
    if (status >= 500 || status === 429) {
      await response.body?.cancel();
      // Says nothing about whether `/me` exists: try again at the next sign-in.
      throw new UpstreamUnavailableError(
        `profile detection: GET /v1/me answered ${status}`,
        status === 429 ? 'rate_limited' : 'bad_reply',
      );
    }
    if (status >= 200 && status < 300) {
      const me = MeSchema.safeParse(await response.json().catch(() => undefined));
      if (me.success) return { profile: 'extended', me: me.data };
      // Something answers `/me`, but not with our extension: only the published contract is safe.
      return { profile: 'hosted' };
    }
    await response.body?.cancel();
    // 404/405 (no such operation), 401/403 (a gateway refusing unknown paths), any other 4xx.
    return { profile: 'hosted' };
  };

  return {
    known(region) {
      return region.profile === 'auto' ? detected.get(region.id) : region.profile;
    },
    async resolve(region, accessToken) {
      if (region.profile !== 'auto') return { profile: region.profile };
      const cached = detected.get(region.id);
      if (cached) return { profile: cached };
      const running = probing.get(region.id);
      // Another sign-in is probing with its own token: its `/me` is somebody else.
      if (running) return { profile: (await running).profile };
      const promise = probe(region, accessToken)
        .then((result) => {
          detected.set(region.id, result.profile);
          deps.logger.info('upstream profile detected', {
            region: region.id,
            profile: result.profile,
          });
          return result;
        })
        .finally(() => probing.delete(region.id));
      probing.set(region.id, promise);
      return promise;
    },
  };
}
